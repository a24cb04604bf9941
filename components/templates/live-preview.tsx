"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import type { UserRow } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import type { Rendered, Template } from "@/components/messages/types";
import { UserPicker, userLabel } from "@/components/messages/user-picker";
import { Button } from "@/components/ui/button";
import { ErrorBanner, controlClass, inputClass } from "@/components/ui/states";

/** The widths the HTML is shown at: a desktop client's reading pane and a phone. */
export const WIDTHS = { desktop: 640, mobile: 375 } as const;
type Width = keyof typeof WIDTHS;

/** `value`, once it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/**
 * The saved template rendered as a chosen user (the templates' preview API): in the user's own locale or
 * any of the template's, at desktop or mobile width. It renders again by itself, debounced, whenever the
 * template is saved or the user, locale or journey data change; `dirty` says the editor holds more.
 */
export function LivePreview({
  template,
  dirty,
  user,
  setUser,
}: {
  template: Template;
  dirty: boolean;
  user: UserRow | null;
  setUser: (u: UserRow | null) => void;
}) {
  const project = useProject();
  // "user": the user's own locale; "": the default variant; else a locale of the template.
  const [locale, setLocale] = useState<string>("user");
  const [width, setWidth] = useState<Width>("desktop");
  const [context, setContext] = useState("");
  const parsed = (() => {
    if (!context.trim()) return { ok: true as const, value: undefined };
    try {
      const v = JSON.parse(context) as unknown;
      return v && typeof v === "object" && !Array.isArray(v) ? { ok: true as const, value: v } : { ok: false as const };
    } catch {
      return { ok: false as const };
    }
  })();
  const request = useDebounced(
    JSON.stringify({
      user_id: user?.id,
      ...(locale === "user" ? {} : { locale: locale || null }),
      ...(parsed.ok && parsed.value ? { context: parsed.value } : {}),
      at: template.updated_at,
    }),
    400,
  );
  const preview = useQuery({
    queryKey: ["template-preview", project.id, template.id, request],
    enabled: !!user && parsed.ok,
    queryFn: () => {
      const { at: _at, ...body } = JSON.parse(request) as Record<string, unknown>;
      return apiFetch<Rendered>(adminPath(project.id, `/templates/${template.id}/preview`), {
        method: "POST",
        body,
      });
    },
    placeholderData: (prev) => prev,
    retry: false,
  });
  const locales = Object.keys(template.locales ?? {});
  const r = preview.data;
  return (
    <section className="space-y-3" aria-label="Live preview">
      <div className="flex flex-wrap items-center gap-2">
        {user ? (
          <p className="flex items-center gap-2 text-sm">
            As <strong className="break-all">{userLabel(user)}</strong>
            {user.locale && <span className="text-zinc-500">({user.locale})</span>}
            <Button size="sm" variant="ghost" onClick={() => setUser(null)}>
              Change
            </Button>
          </p>
        ) : (
          <div className="min-w-64 flex-1">
            <UserPicker label="Preview as user" onPick={setUser} size="sm" />
          </div>
        )}
        {template.channel === "email" && (
          <select
            aria-label="Preview locale"
            value={locale}
            onChange={(e) => setLocale(e.target.value)}
            className={`${controlClass} py-1 text-xs`}
          >
            <option value="user">The user&apos;s locale</option>
            <option value="">Default</option>
            {locales.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        )}
        <div className="flex rounded-md border border-zinc-300 text-xs" role="group" aria-label="Preview width">
          {(Object.keys(WIDTHS) as Width[]).map((w) => (
            <button
              key={w}
              type="button"
              aria-pressed={width === w}
              onClick={() => setWidth(w)}
              className={`px-2.5 py-1 first:rounded-l-md last:rounded-r-md ${width === w ? "bg-zinc-900 text-white" : "text-zinc-600 hover:bg-zinc-50"}`}
            >
              {w === "desktop" ? `Desktop ${WIDTHS.desktop}px` : `Mobile ${WIDTHS.mobile}px`}
            </button>
          ))}
        </div>
        <Button size="sm" variant="secondary" disabled={!user} onClick={() => preview.refetch()}>
          {preview.isFetching ? "Rendering…" : "Preview"}
        </Button>
      </div>
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
      {!parsed.ok && <ErrorBanner message='The journey data must be a JSON object, like {"order_id": 42}.' />}
      {dirty && <p className="text-xs text-amber-700">Unsaved changes: the preview shows the saved template.</p>}
      {!user && <p className="text-sm text-zinc-500">Choose a user to render the template as them.</p>}
      {preview.isError && <ErrorBanner message={preview.error.message} />}
      {r && user && (
        <div className="space-y-2 text-sm">
          <p className="text-xs text-zinc-500">Variant: {r.locale ?? "default"}</p>
          {!!r.subject && (
            <p className="font-medium text-zinc-900" data-testid="rendered-subject">
              {r.subject}
            </p>
          )}
          {r.html ? (
            <div className="overflow-x-auto rounded-md bg-zinc-100 p-2">
              <iframe
                title="Rendered HTML"
                sandbox=""
                srcDoc={r.html}
                style={{ width: WIDTHS[width] }}
                className="mx-auto block h-[32rem] max-w-none rounded bg-white ring-1 ring-zinc-200"
              />
            </div>
          ) : null}
          {r.text !== null && (
            <details open={!r.html}>
              <summary className="cursor-pointer text-xs text-zinc-500">Text part</summary>
              <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-all rounded-md bg-zinc-50 p-2 font-mono text-xs text-zinc-800 ring-1 ring-zinc-200">
                {r.text}
              </pre>
            </details>
          )}
        </div>
      )}
    </section>
  );
}
