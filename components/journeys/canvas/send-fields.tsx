"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { adminPath, apiFetch } from "@/components/console/api";
import type { Page, UserRow } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import type { Rendered, Template } from "@/components/messages/types";
import { UserPicker, userLabel } from "@/components/messages/user-picker";
import { FieldError } from "@/components/rule-builder/field-error";
import { RenderedMessage } from "@/components/templates/template-preview";
import { Button } from "@/components/ui/button";
import { ErrorBanner, controlClass } from "@/components/ui/states";

/** A send step: the template (picked by name), and its preview as a user (the templates' preview API). */
export function SendFields() {
  const project = useProject();
  const { control, register } = useFormContext();
  const templateId = useWatch({ control, name: "template_id" }) as string | undefined;
  const [user, setUser] = useState<UserRow | null>(null);
  const templates = useQuery({
    queryKey: ["templates", project.id],
    queryFn: () => apiFetch<Page<Template>>(adminPath(project.id, "/templates?limit=500")),
    staleTime: 30_000,
  });
  const preview = useMutation({
    mutationFn: (v: { id: string; user: string }) =>
      apiFetch<Rendered>(adminPath(project.id, `/templates/${v.id}/preview`), {
        method: "POST",
        body: { user_id: v.user },
      }),
  });
  const chosen = templates.data?.data.find((t) => t.id === templateId);
  return (
    <div className="space-y-3">
      <div className="space-y-1 text-sm">
        <label htmlFor="send-template" className="block text-xs font-medium text-zinc-600">
          Template
        </label>
        <select id="send-template" className={`${controlClass} w-full`} {...register("template_id")}>
          <option value="">choose…</option>
          {templates.data?.data.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({t.channel})
            </option>
          ))}
        </select>
        <FieldError name="template_id" />
        {chosen && (
          <Link
            href={`/projects/${project.id}/templates/${chosen.id}`}
            className="text-xs text-indigo-700 hover:underline"
          >
            Open {chosen.name}
          </Link>
        )}
      </div>
      {templateId && (
        <div className="space-y-2 rounded-md border border-zinc-200 p-2">
          {user ? (
            <p className="flex items-center justify-between gap-2 text-xs">
              <span>
                As <strong className="break-all">{userLabel(user)}</strong>
              </span>
              <Button size="sm" variant="ghost" onClick={() => setUser(null)}>
                Change
              </Button>
            </p>
          ) : (
            <UserPicker label="Preview as user" onPick={setUser} size="sm" />
          )}
          <Button
            size="sm"
            variant="secondary"
            disabled={!user || preview.isPending}
            onClick={() => user && preview.mutate({ id: templateId, user: user.id })}
          >
            {preview.isPending ? "Rendering…" : "Preview"}
          </Button>
          {preview.isError && <ErrorBanner message={preview.error.message} />}
          {preview.data && preview.variables?.id === templateId && <RenderedMessage r={preview.data} />}
        </div>
      )}
    </div>
  );
}
