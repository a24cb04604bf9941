import { linkToken } from "@/lib/links/tokens";
import { withSigningSecret } from "@/lib/signing/secret";
import { preferencesPath, preferencesToken, unsubscribePath, unsubscribeToken } from "@/lib/subscriptions/tokens";
import { renderPart } from "./liquid";
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
    project: { id: f.project_id, name: f.project_name },
    unsubscribe_url: links.unsubscribeUrl ?? "",
    get preferences_url() {
      return links.preferencesUrl();
    },
  };
}

const HREF = /(<a\b[^>]*?\bhref\s*=\s*)(["'])(https?:\/\/[^"'\s<>]{1,2000})\2/gi;

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
 * campaign), leaving Relay's own links (unsubscribe, preferences) as they are. A regular expression over
 * `<a href>` is enough here: the HTML is the template's own output, and a link it misses simply stays
 * untracked.
 */
export function trackLinks(
  html: string,
  claim: { origin: string; projectId: string; campaignId: string; userId: string },
) {
  // A link repeated in the message (a header and a footer button) is signed once.
  const signed = new Map<string, string>();
  return html.replace(HREF, (whole, head: string, quote: string, url: string) => {
    const plain = url.includes("&amp;") ? url.replace(/&amp;/g, "&") : url;
    if (plain.startsWith(`${claim.origin}/`) || !trackable(plain)) return whole;
    let token = signed.get(plain);
    if (!token) {
      token = linkToken({ projectId: claim.projectId, campaignId: claim.campaignId, userId: claim.userId, url: plain });
      signed.set(plain, token);
    }
    return `${head}${quote}${claim.origin}/l/${token}${quote}`;
  });
}

/** Renders a message's subject, text and html for its user (throws TemplateError on a limit or error). */
export function renderMessage(f: RenderFacts, origin: string): RenderedMessage {
  return withSigningSecret(() => render(f, origin));
}

function render(f: RenderFacts, origin: string): RenderedMessage {
  const unsubscribeUrl = f.group_id
    ? origin + unsubscribePath(unsubscribeToken({ projectId: f.project_id, userId: f.user_id, groupId: f.group_id }))
    : null;
  let signed: string | undefined;
  const preferencesUrl = () =>
    (signed ??= origin + preferencesPath(preferencesToken({ projectId: f.project_id, userId: f.user_id })));
  const scope = templateScope(f, { unsubscribeUrl, preferencesUrl });
  const v = variantFor(f, f.locale);
  // A build holds each locale's html compiled: the variant's subject and text are the version's own.
  if (f.built_locales && v.locale) v.html = f.built_locales[v.locale] ?? v.html;
  const snippets = f.snippets;
  // Compiled parts are cached by template and version (updated_at, to the microsecond, changes with every
  // edit); facts without a version (a test send's empty user) are cached by their text.
  const key = (part: string) =>
    f.template_updated_at ? `${f.template_id}/${f.template_updated_at}/${v.locale ?? ""}/${part}` : undefined;
  const html = renderPart(v.html, scope, { html: true, key: key("html"), snippets });
  const tracked = html
    ? trackLinks(html, {
        origin,
        projectId: f.project_id,
        campaignId: f.broadcast_id ?? f.template_id,
        userId: f.user_id,
      })
    : "";
  const text = renderPart(v.text, scope, { key: key("text"), snippets });
  return {
    locale: v.locale,
    subject: renderPart(v.subject, scope, { key: key("subject"), snippets })
      .replace(/[\r\n]+/g, " ")
      .trim(),
    // An e-mail without a text part gets one made from its html, links (tracked ones) kept as `text [url]`.
    text: text || f.channel !== "email" || !tracked ? text : textFromHtml(tracked, unsubscribeUrl),
    html: tracked,
    unsubscribeUrl,
  };
}
