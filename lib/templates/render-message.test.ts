import { describe, expect, it } from "vitest";
import { readLinkToken } from "@/lib/links/tokens";
import { readOpenToken } from "@/lib/reports/open-token";
import { readPreferencesToken, readUnsubscribeToken } from "@/lib/subscriptions/tokens";
import { renderMessage } from "./render-message";

process.env.RELAY_SIGNING_SECRET ??= "render-message-test-secret";

const ORIGIN = "https://relay.example";
const ids = {
  project: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
  user: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c",
  template: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5d",
  group: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5e",
};

function facts(parts: { subject?: string; text?: string; html?: string }, version = "2026-11-28 06:00:00.1+00") {
  return {
    project_id: ids.project,
    id: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a60",
    user_id: ids.user,
    channel: "email" as const,
    template_id: ids.template,
    broadcast_id: null,
    journey_entry_id: null,
    journey_step_key: null,
    journey_data: null,
    email: "ada@example.com",
    phone: null,
    locale: null,
    timezone: null,
    user_data: { first_name: "Ada", features: ["journeys", "lists"] },
    identifiers: [],
    organization: null,
    template_updated_at: version,
    subject: parts.subject ?? "",
    text: parts.text ?? "",
    html: parts.html ?? "",
    locales: {},
    transactional: false,
    group_id: ids.group,
    project_name: "Acme",
    frequency_cap: null,
    quiet_hours: null,
    broadcast_rate: null,
    suppressed: false,
  };
}

/** The HTML without its open pixel (the last `<img>` to Relay's `/o/`). */
const withoutPixel = (html: string) => html.replace(new RegExp(`<img src="${ORIGIN}/o/[^"]+"[^>]*>$`), "");

const tokenAfter = (text: string, path: string) =>
  decodeURIComponent(text.split(`${ORIGIN}${path}`)[1]!.split(/["\s<]/)[0]!);

describe("renderMessage", () => {
  it("signs the preference-center link for this user when the template reads it", () => {
    const r = renderMessage(
      facts({ text: "Manage: {{ preferences_url }} / again {{ preferences_url }}" }, "v1"),
      ORIGIN,
    );
    const claim = readPreferencesToken(tokenAfter(r.text, "/preferences/"));
    expect(claim).toEqual({ projectId: ids.project, userId: ids.user });
    // Read twice, signed once: both spell the same link.
    const [first, second] = r.text.match(/\/preferences\/\S+/g)!;
    expect(first).toBe(second);
  });

  it("gives the unsubscribe link for the template's group to the template and to the headers", () => {
    const r = renderMessage(facts({ html: '<a href="{{ unsubscribe_url }}">Unsubscribe</a>' }, "v2"), ORIGIN);
    expect(readUnsubscribeToken(tokenAfter(r.unsubscribeUrl!, "/u/"))).toEqual({
      projectId: ids.project,
      userId: ids.user,
      groupId: ids.group,
    });
    // Relay's own link is left as it is, not wrapped as a tracked link.
    expect(withoutPixel(r.html)).toBe(`<a href="${r.unsubscribeUrl}">Unsubscribe</a>`);
  });

  it("keeps literal text, loops and outputs as liquidjs renders them", () => {
    const r = renderMessage(
      facts(
        {
          subject: "Hi {{ user.data.first_name }}\n!",
          text: "<b>{% for f in user.data.features %}{{ f }}{% unless forloop.last %}, {% endunless %}{% endfor %}</b>",
          html: "<p>{{ user.data.first_name }} & {{ '<i>' }}</p>",
        },
        "v3",
      ),
      ORIGIN,
    );
    expect(r.subject).toBe("Hi Ada !");
    expect(r.text).toBe("<b>journeys, lists</b>");
    expect(withoutPixel(r.html)).toBe("<p>Ada & &lt;i&gt;</p>");
  });

  it("tracks each outside link under one token per URL and leaves links with credentials alone", () => {
    const html =
      '<a href="https://acme.example/a?x=1&amp;y=2">A</a><a href="https://acme.example/a?x=1&amp;y=2">A again</a>' +
      '<a href="https://me:pw@acme.example/b">B</a><a href="https://[bad">C</a>';
    const r = renderMessage(facts({ html }, "v4"), ORIGIN);
    const tokens = [...r.html.matchAll(/\/l\/([^"]+)"/g)].map((m) => m[1]!);
    expect(tokens).toHaveLength(2);
    expect(tokens[0]).toBe(tokens[1]);
    expect(readLinkToken(tokens[0]!)).toMatchObject({ userId: ids.user, url: "https://acme.example/a?x=1&y=2" });
    expect(r.html).toContain('<a href="https://me:pw@acme.example/b">B</a>');
    expect(r.html).toContain('<a href="https://[bad">C</a>');
  });

  it("puts a signed open pixel for the message before </body> of non-transactional e-mail only", () => {
    const r = renderMessage(facts({ html: "<html><body><p>Hi</p></body></html>" }), ORIGIN);
    expect(r.html).toMatch(/<p>Hi<\/p><img src="[^"]+\/o\/[^"]+" width="1" height="1"[^>]*><\/body><\/html>$/);
    expect(readOpenToken(tokenAfter(r.html, "/o/"))).toEqual({ projectId: ids.project, messageId: facts({}).id });
    const receipt = renderMessage({ ...facts({ html: "<p>Receipt</p>" }, "receipt"), transactional: true }, ORIGIN);
    expect(receipt.html).toBe("<p>Receipt</p>");
  });
});
