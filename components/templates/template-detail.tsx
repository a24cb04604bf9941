"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import type { Template } from "@/components/messages/types";
import { ProfileHeader } from "@/components/records/profile-parts";
import { buttonClass } from "@/components/ui/button";
import { ErrorBanner, LoadingRows } from "@/components/ui/states";
import { TemplateEditor } from "./template-editor";

/** A saved template: its editor, preview and test send, and a link to how its messages did. */
export function TemplateDetail({ templateId }: { templateId: string }) {
  const project = useProject();
  const q = useQuery({
    queryKey: ["template", project.id, templateId],
    queryFn: () => apiFetch<Template>(adminPath(project.id, `/templates/${templateId}`)),
  });
  return (
    <div className="space-y-6">
      <ProfileHeader
        backHref={`/projects/${project.id}/templates`}
        backLabel="Templates"
        title={q.data?.name ?? "Template"}
      >
        <p className="mt-1 text-sm text-zinc-500">
          Liquid: <code className="font-mono text-xs">{"{{ user.email }}"}</code>,{" "}
          <code className="font-mono text-xs">{"{{ user.data.plan }}"}</code>,{" "}
          <code className="font-mono text-xs">{"{{ journey.order_id }}"}</code>,{" "}
          <code className="font-mono text-xs">{"{{ organization.name }}"}</code>,{" "}
          <code className="font-mono text-xs">{"{{ unsubscribe_url }}"}</code>,{" "}
          <code className="font-mono text-xs">{"{{ preferences_url }}"}</code>. Links in the HTML are tracked.
        </p>
        <Link
          href={`/projects/${project.id}/templates/${templateId}/report`}
          className={`${buttonClass("secondary", "sm")} mt-3`}
        >
          Performance
        </Link>
      </ProfileHeader>
      {q.isPending ? (
        <LoadingRows rows={6} label="Loading the template" />
      ) : q.isError ? (
        <ErrorBanner message={q.error.message} />
      ) : (
        <TemplateEditor key={q.data.id} template={q.data} />
      )}
    </div>
  );
}
