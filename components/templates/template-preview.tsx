"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import type { UserRow } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import type { Rendered, Template } from "@/components/messages/types";
import { userLabel } from "@/components/messages/user-picker";
import { LivePreview } from "./live-preview";
import { VersionsPanel } from "./versions-panel";
import { Button } from "@/components/ui/button";
import { Banner, ErrorBanner, Section, inputClass } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/access/roles";

/** A rendered message: subject, text, and the HTML in a sandboxed frame (no script, no same-origin). */
export function RenderedMessage({ r }: { r: Rendered }) {
  return (
    <div className="space-y-3 text-sm">
      {r.locale !== undefined && <p className="text-xs text-zinc-500">Variant: {r.locale ?? "default"}</p>}
      {!!r.subject && (
        <div>
          <p className="text-xs font-medium uppercase tracking-wide text-zinc-500">Subject</p>
          <p className="mt-0.5 font-medium text-zinc-900" data-testid="rendered-subject">
            {r.subject}
          </p>
        </div>
      )}
      {r.text !== null && (
        <div>
          <p className="text-xs font-medium uppercase tracking-wide text-zinc-500">Text</p>
          <pre className="mt-0.5 max-h-64 overflow-auto whitespace-pre-wrap break-all rounded-md bg-zinc-50 p-2 font-mono text-xs text-zinc-800 ring-1 ring-zinc-200">
            {r.text}
          </pre>
        </div>
      )}
      {r.html && (
        <div>
          <p className="text-xs font-medium uppercase tracking-wide text-zinc-500">HTML</p>
          <iframe
            title="Rendered HTML"
            sandbox=""
            srcDoc={r.html}
            className="mt-0.5 h-64 w-full rounded-md bg-white ring-1 ring-zinc-200"
          />
        </div>
      )}
    </div>
  );
}

/** Beside the editor: the live preview as a chosen user (live-preview.tsx), and one test message to an address. */
export function TemplatePreview({ template, dirty }: { template?: Template; dirty: boolean }) {
  const project = useProject();
  const canEdit = roleAtLeast(project.role, "editor");
  const [user, setUser] = useState<UserRow | null>(null);
  const [to, setTo] = useState("");
  const test = useMutation({
    mutationFn: (address: string) =>
      apiFetch(adminPath(project.id, `/templates/${template!.id}/test`), {
        method: "POST",
        body: { to: address, ...(user ? { user_id: user.id } : {}) },
      }),
  });
  if (!template)
    return (
      <Section title="Preview">
        <p className="text-sm text-zinc-500">Create the template to preview it against a user and send a test.</p>
      </Section>
    );
  const address = template.channel === "email" ? "E-mail address" : "Phone number";
  return (
    <div className="space-y-6">
      <Section title="Preview">
        <LivePreview template={template} dirty={dirty} user={user} setUser={setUser} />
      </Section>
      {canEdit && (
        <Section title="Send a test">
          <form
            className="space-y-2"
            onSubmit={(e) => {
              e.preventDefault();
              test.mutate(to.trim());
            }}
          >
            <input
              aria-label={address}
              type={template.channel === "email" ? "email" : "tel"}
              required
              maxLength={320}
              value={to}
              onChange={(e) => setTo(e.target.value)}
              placeholder={template.channel === "email" ? "you@example.com" : "+14155550100"}
              className={inputClass}
            />
            <p className="text-xs text-zinc-500">
              {user ? `Rendered as ${userLabel(user)}.` : "Rendered as the preview user, once one is chosen."}
            </p>
            <Button type="submit" size="sm" variant="secondary" disabled={test.isPending || !to.trim()}>
              {test.isPending ? "Sending…" : "Send test"}
            </Button>
            {test.isSuccess && <Banner tone="success">Test sent to {test.variables}.</Banner>}
            {test.isError && <ErrorBanner message={test.error.message} />}
          </form>
        </Section>
      )}
      <VersionsPanel template={template} />
    </div>
  );
}
