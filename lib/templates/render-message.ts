import type { Actor } from "@/lib/access/context";
import { can } from "@/lib/access/permissions";
import { linkToken } from "@/lib/links/tokens";
import { openPixelPath } from "@/lib/reports/open-token";
import { withSigningSecret } from "@/lib/signing/secret";
import { preferencesPath, preferencesToken, unsubscribePath, unsubscribeToken } from "@/lib/subscriptions/tokens";
import { checkDeadline, RENDER_LIMIT_MS, renderPart } from "./liquid";
import { textFromHtml } from "./text-from-html";
import type { SendFacts } from "@/lib/messages/send-facts";
import { variantFor } from "./variant";

export interface RenderedMessage {
  locale: string | null;
  subject: string;
  text: string;
  html: string;
  unsubscribeUrl: string | null;
}

type RenderFacts = Omit<
  SendFacts,
  | "attempts"
  | "opted_out"
  | "recent"
  | "cap_reserved"
  | "broadcast_state"
  | "policy"
  | "sub_state"
  | "template_version_id"
  | "built_locales"
  | "snippet_versions"
> &
  Partial<Pick<SendFacts, "built_locales">>;

/**
 * The variables a template sees: plain data objects, looked up by own property only (liquid.ts). The
 * preference-center link is signed only when the template reads it: few do, and each signature is a
 * measurable part of rendering a message.
 */
export function templateScope(f: RenderFacts, links: { unsubscribeUrl: string | null; preferencesUrl: () => string }) {
  return {
    user: {
      id: f.user_id,
      email: f.email,
      phone: f.phone,
      locale: f.locale,
      timezone: f.timezone,
      data: f.user_data,
      identifiers: f.identifiers,
    },
    organization: f.organization,
    journey: f.journey_data ?? {},
    data: f.data ?? {},
    project: { id: f.project_id, name: f.project_name },
    unsubscribe_url: links.unsubscribeUrl ?? "",
    get preferences_url() {
      return links.preferencesUrl();
    },
  };
}

/** An `<a` that starts a tag (not `<abbr>`); the tag runs to the first `>` after it. */
const A_TAG = /<a\b/gi;
/** The first quoted http(s) `href` of a tag's text. Its one unbounded part is `\s*`, so no backtracking. */
const HREF = /\bhref\s*=\s*(["'])(https?:\/\/[^"'\s<>]{1,2000})\1/i;

// A template's links are mostly the same few for every message of a broadcast: each is parsed once.
const parsedLinks = new Map<string, boolean>();

/** A link we may wrap: a URL that parses and carries no credentials (which would end up in the token). */
function trackable(url: string): boolean {
  let ok = parsedLinks.get(url);
  if (ok === undefined) {
    try {
      const u = new URL(url);
      ok = !u.username && !u.password;
    } catch {
      ok = false;
    }
    if (parsedLinks.size >= 1_000) parsedLinks.clear();
    parsedLinks.set(url, ok);
  }
  return ok;
}

/**
 * Turns the links of rendered HTML into tracked links (`/l/…`, recorded as `link.clicked` with the
 * campaign), leaving Relay's own links (unsubscribe, preferences) as they are. A scan for `<a … href>` is
 * enough here: the HTML is the template's own output, and a link it misses simply stays untracked.
 *
 * Linear in the HTML: a tag is the text from `<a` to the next `>`, searched once for its first link; a tag
 * without one is skipped whole (any `<a` inside it would find the same nothing), so many `<a` and no `>`
 * cost one pass, not one pass each. Past `deadline` (the message's render limit) it throws TemplateError.
 */
export function trackLinks(
  html: string,
  claim: { origin: string; projectId: string; campaignId: string; userId: string; messageId?: string },
  deadline?: number,
) {
  // A link repeated in the message (a header and a footer button) is signed once.
  const signed = new Map<string, string>();
  const parts: string[] = [];
  let copied = 0;
  const tags = new RegExp(A_TAG);
  for (let seen = 0; ; seen++) {
    if ((seen & 255) === 255) checkDeadline(deadline);
    const open = tags.exec(html);
    if (!open) break;
    const close = html.indexOf(">", open.index);
    const end = close === -1 ? html.length : close;
    const tag = html.slice(open.index, end);
    const m = HREF.exec(tag);
    if (!m) {
      tags.lastIndex = end;
      continue;
    }
    const urlAt = open.index + m.index + m[0].length - m[2]!.length - 1;
    tags.lastIndex = open.index + m.index + m[0].length;
    const url = m[2]!;
    const plain = url.includes("&amp;") ? url.replace(/&amp;/g, "&") : url;
    if (plain.startsWith(`${claim.origin}/`) || !trackable(plain)) continue;
    let token = signed.get(plain);
    if (!token) {
      token = linkToken({
        projectId: claim.projectId,
        campaignId: claim.campaignId,
        userId: claim.userId,
        url: plain,
        messageId: claim.messageId,
      });
      signed.set(plain, token);
    }
    parts.push(html.slice(copied, urlAt), `${claim.origin}/l/${token}`);
    copied = urlAt + url.length;
  }
  checkDeadline(deadline);
  if (!copied) return html;
  parts.push(html.slice(copied));
  return parts.join("");
}

/**
 * Non-transactional e-mail carries a 1×1 open pixel (`/o/<token>`, signed for its project and message),
 * before `</body>` or at the end. Transactional mail carries none: a receipt is not a campaign.
 */
function withOpenPixel(html: string, f: RenderFacts, origin: string): string {
  if (f.transactional || f.channel !== "email") return html;
  const img = `<img src="${origin}${openPixelPath({ projectId: f.project_id, messageId: f.id })}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`;
  const end = html.lastIndexOf("</body>");
  return end < 0 ? html + img : html.slice(0, end) + img + html.slice(end);
}

/**
 * Whether this actor may be shown a rendering with working per-user links. Each unsubscribe, preference
 * and tracked link is a credential for its user (it unsubscribes them, edits their preferences, records
 * their clicks); minting them needs `links.write` (editor), so a preview or message view for a lower role
 * gets placeholders instead.
 */
export function mayMintLinks(actor: Actor): boolean {
  return actor.kind === "system" || can(actor.role, "links.write");
}

/** The placeholders a rendering for a role below `editor` shows instead of signed links. */
export const PLACEHOLDER = { unsubscribe: "/u/preview", preferences: "/preferences/preview" } as const;

/**
 * Renders a message's subject, text and html for its user (throws TemplateError on a limit or error).
 * `placeholders`: no signed link at all (unsubscribe and preferences are placeholders, outside links stay
 * as written), for previews shown to a role that may not mint them. `send`: the rendering that goes out,
 * the only one with the open pixel and with links that credit the message (a preview or a message view
 * opened in the console must not count as the recipient's open or click).
 */
export function renderMessage(
  f: RenderFacts,
  origin: string,
  opts: { placeholders?: boolean; send?: boolean } = {},
): RenderedMessage {
  return opts.placeholders
    ? render(f, origin, true, false)
    : withSigningSecret(() => render(f, origin, false, opts.send ?? false));
}

function render(f: RenderFacts, origin: string, placeholders: boolean, send: boolean): RenderedMessage {
  // One budget for the whole message: each part gets what the parts before it left, and so does the link
  // rewrite, so no part of rendering can hold a worker or the web process past the limit.
  const deadline = performance.now() + RENDER_LIMIT_MS;
  const unsubscribeUrl = !f.group_id
    ? null
    : placeholders
      ? origin + PLACEHOLDER.unsubscribe
      : origin +
        unsubscribePath(
          unsubscribeToken({
            projectId: f.project_id,
            userId: f.user_id,
            groupId: f.group_id,
            ...(send ? { messageId: f.id } : {}),
          }),
        );
  let signed: string | undefined;
  const preferencesUrl = () =>
    (signed ??= placeholders
      ? origin + PLACEHOLDER.preferences
      : origin + preferencesPath(preferencesToken({ projectId: f.project_id, userId: f.user_id })));
  const scope = templateScope(f, { unsubscribeUrl, preferencesUrl });
  const v = variantFor(f, f.locale);
  // A build holds each locale's html compiled: the variant's subject and text are the version's own.
  if (f.built_locales && v.locale) v.html = f.built_locales[v.locale] ?? v.html;
  const snippets = f.snippets;
  // Compiled parts are cached by template and version (updated_at, to the microsecond, changes with every
  // edit); facts without a version (a test send's empty user) are cached by their text.
  const key = (part: string) =>
    f.template_updated_at ? `${f.template_id}/${f.template_updated_at}/${v.locale ?? ""}/${part}` : undefined;
  const html = renderPart(v.html, scope, { html: true, key: key("html"), deadline, snippets });
  const subject = renderPart(v.subject, scope, { key: key("subject"), deadline, snippets })
    .replace(/[\r\n]+/g, " ")
    .trim();
  const text = renderPart(v.text, scope, { key: key("text"), deadline, snippets });
  // Placeholders leave outside links untracked: a tracked link is a token for this user's clicks.
  const claim = {
    origin,
    projectId: f.project_id,
    campaignId: f.broadcast_id ?? f.template_id,
    userId: f.user_id,
    ...(send ? { messageId: f.id } : {}),
  };
  const tracked = html && !placeholders ? trackLinks(html, claim, deadline) : html;
  checkDeadline(deadline);
  // An e-mail without a text part gets one made from its html, links (tracked ones) kept as `text [url]`.
  const plain = text || f.channel !== "email" || !tracked ? text : textFromHtml(tracked, unsubscribeUrl);
  const linked = tracked && send ? withOpenPixel(tracked, f, origin) : tracked;
  return { locale: v.locale, subject, text: plain, html: linked, unsubscribeUrl };
}
