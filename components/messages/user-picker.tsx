"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import type { Page, UserRow } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { controlClass } from "@/components/ui/states";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How a user is named in the console: the e-mail, else the first external id, else the id. */
export const userLabel = (u: Pick<UserRow, "id" | "email" | "identifier">) =>
  u.email ?? u.identifier[0]?.external_id ?? u.id;

/**
 * Finds one user by e-mail, external id or Relay id (the users API's own filters) and hands it to
 * `onPick`; says so when nobody matches. `label` names the input for screen readers and tests.
 */
export function UserPicker({
  label,
  onPick,
  size = "md",
}: {
  label: string;
  onPick: (u: UserRow) => void;
  size?: "sm" | "md";
}) {
  const project = useProject();
  const [text, setText] = useState("");
  const find = useMutation({
    mutationFn: async (raw: string): Promise<UserRow | null> => {
      const v = raw.trim();
      if (UUID.test(v)) return apiFetch<UserRow>(adminPath(project.id, `/users/${v}`)).catch(() => null);
      const qs = new URLSearchParams({ limit: "1", ...(v.includes("@") ? { email: v } : { external_id: v }) });
      const page = await apiFetch<Page<UserRow>>(adminPath(project.id, `/users?${qs}`));
      return page.data[0] ?? null;
    },
    onSuccess: (u) => {
      if (u) {
        onPick(u);
        setText("");
      }
    },
  });
  return (
    <div>
      {/* Not a <form>: the picker sits inside other forms (the template editor's). */}
      <div className="flex gap-2">
        <input
          aria-label={label}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== "Enter") return;
            e.preventDefault();
            if (text.trim()) find.mutate(text);
          }}
          placeholder="E-mail, external id or user id"
          maxLength={1024}
          className={`${controlClass} min-w-0 flex-1${size === "sm" ? " py-1.5" : ""}`}
        />
        <Button
          variant="secondary"
          size={size}
          disabled={find.isPending || !text.trim()}
          onClick={() => find.mutate(text)}
        >
          {find.isPending ? "Finding…" : "Find"}
        </Button>
      </div>
      {find.data === null && <p className="mt-1 text-xs text-red-700">No user matches “{find.variables}”.</p>}
      {find.isError && <p className="mt-1 text-xs text-red-700">{find.error.message}</p>}
    </div>
  );
}
