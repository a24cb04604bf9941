"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import type { UserRow } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import type { Rendered, Template } from "@/components/messages/types";
import { UserPicker, userLabel } from "@/components/messages/user-picker";
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

/** Beside the editor: the saved template rendered for a chosen user, and one test message to an address. */
export function TemplatePreview({ template, dirty }: { template?: Template; dirty: boolean }) {
  const project = useProject();
  const canEdit = roleAtLeast(project.role, "editor");
  const [user, setUser] = useState<UserRow | null>(null);
  const [context, setContext] = useState("");
  const [contextError, setContextError] = useState<string | null>(null);
  const [to, setTo] = useState("");
  const preview = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      apiFetch<Rendered>(adminPath(project.id, `/templates/${template!.id}/preview`), { method: "POST", body }),
  });
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
  const run = () => {
    if (!user) return;
    let parsed: unknown;
    if (context.trim()) {
      try {
        parsed = JSON.parse(context);
      } catch {
        setContextError('The journey data must be a JSON object, like {"order_id": 42}.');
        return;
      }
    }
    setContextError(null);
    preview.mutate({ user_id: user.id, ...(parsed !== undefined ? { context: parsed } : {}) });
  };
  const address = template.channel === "email" ? "E-mail address" : "Phone number";
  return (
    <div className="space-y-6">
      <Section title="Preview" description={dirty ? "Save first: the preview renders the saved template." : undefined}>
        <div className="space-y-3">
          {user ? (
            <p className="flex items-center justify-between gap-2 text-sm">
              <span>
                As <strong className="break-all">{userLabel(user)}</strong>
                {user.locale && <span className="text-zinc-500"> ({user.locale})</span>}
              </span>
              <Button size="sm" variant="ghost" onClick={() => setUser(null)}>
                Change
              </Button>
            </p>
          ) : (
            <UserPicker label="Preview as user" onPick={setUser} size="sm" />
          )}
          <details className="text-sm">
            <summary className="cursor-pointer text-xs text-zinc-500">Journey data (optional)</summary>
            <textarea
              aria-label="Journey data"
              rows={3}
              maxLength={16_384}
              value={context}
              onChange={(e) => setContext(e.target.value)}
              placeholder='{"order_id": 42}'
              className={`${inputClass} mt-1 font-mono text-xs`}
            />
          </details>
          {contextError && <ErrorBanner message={contextError} />}
          <Button size="sm" onClick={run} disabled={!user || preview.isPending}>
            {preview.isPending ? "Rendering…" : "Preview"}
          </Button>
          {preview.isError && <ErrorBanner message={preview.error.message} />}
          {preview.data && <RenderedMessage r={preview.data} />}
        </div>
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
    </div>
  );
}
