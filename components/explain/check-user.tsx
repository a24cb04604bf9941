"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { Button } from "@/components/ui/button";
import { Card, ErrorBanner, controlClass } from "@/components/ui/states";
import type { Page, UserRow } from "@/components/console/api-types";
import { ListWhy } from "./list-why";

/** "Check a user": find a user by identifier (or e-mail) and show why they are or are not in this list. */
export function CheckUser({ projectId, listId }: { projectId: string; listId: string }) {
  const [text, setText] = useState("");
  const find = useMutation({
    mutationFn: async (raw: string) => {
      const v = raw.trim();
      const [source, externalId] = v.includes(":") && !v.includes("@") ? v.split(/:(.*)/s) : ["", v];
      const params = new URLSearchParams({ limit: "1" });
      if (v.includes("@")) params.set("email", v);
      else {
        params.set("external_id", externalId!);
        if (source) params.set("source", source);
      }
      const r = await apiFetch<Page<UserRow>>(adminPath(projectId, `/users?${params}`));
      if (!r.data[0]) throw new Error(`No user with the identifier or e-mail "${v}".`);
      return r.data[0].id;
    },
  });
  return (
    <Card className="p-5">
      <h2 className="text-sm font-semibold text-zinc-900">Check a user</h2>
      <p className="mt-0.5 text-sm text-zinc-500">
        Why is a user in this list, or not? The rules are evaluated now, the way the pipeline does.
      </p>
      <form
        className="mt-3 flex flex-wrap gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) find.mutate(text);
        }}
      >
        <input
          aria-label="User identifier or e-mail"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="external id, source:external_id or e-mail"
          className={`${controlClass} min-w-64 flex-1`}
        />
        <Button type="submit" disabled={find.isPending}>
          Check
        </Button>
      </form>
      {find.isError && <ErrorBanner className="mt-3" message={find.error.message} />}
      {find.data && (
        <div className="mt-4">
          <ListWhy key={find.data} projectId={projectId} listId={listId} userId={find.data} />
        </div>
      )}
    </Card>
  );
}
