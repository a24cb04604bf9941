import { describe, expect, it } from "vitest";
import { readLinkToken } from "@/lib/links/tokens";
import { readOpenToken } from "@/lib/reports/open-token";
import { readPreferencesToken, readUnsubscribeToken } from "@/lib/subscriptions/tokens";
import { RENDER_LIMIT_MS, renderPart, TemplateError } from "./liquid";
import { renderMessage, trackLinks } from "./render-message";

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
    expect(r.html).toBe(`<a href="${r.unsubscribeUrl}">Unsubscribe</a>`);
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
    expect(r.html).toBe("<p>Ada & &lt;i&gt;</p>");
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

  it("rewrites links in time linear in the output: many `<a` and no `>` take milliseconds, not seconds", () => {
    const claim = { origin: ORIGIN, projectId: ids.project, campaignId: ids.template, userId: ids.user };
    const html = `${"<a ".repeat(60_000)}<b>`;
    const started = performance.now();
    expect(trackLinks(html, claim)).toBe(html);
    expect(performance.now() - started).toBeLessThan(500);
    const linked = trackLinks(`${"<a ".repeat(60_000)}><a href="https://acme.example/x">x</a>`, claim);
    expect(linked).toMatch(/><a href="https:\/\/relay\.example\/l\/[^"]+">x<\/a>$/);
  });

  it("tracks every link of an unclosed run of tags, each `<a` on its own", () => {
    const claim = { origin: ORIGIN, projectId: ids.project, campaignId: ids.template, userId: ids.user };
    const out = trackLinks(
      '<a href="https://a.example/1" <A title=x href=\'https://a.example/2\' <a href="ftp://x"',
      claim,
    );
    expect(out.match(/\/l\//g)).toHaveLength(2);
    expect(out).toContain("title=x href='https://relay.example/l/");
    expect(out.endsWith('<a href="ftp://x"')).toBe(true);
  });

  it("counts link rewriting inside the render limit: a loop of `<a ` renders or fails in well under a second", () => {
    const started = performance.now();
    let outcome: string;
    try {
      const r = renderMessage(facts({ html: "{% for i in (1..60000) %}<a {% endfor %}" }, "v5"), ORIGIN);
      outcome = `rendered ${r.html.length}`;
    } catch (err) {
      expect(err).toBeInstanceOf(TemplateError);
      outcome = (err as TemplateError).message;
    }
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(outcome).toMatch(/^rendered 180000$|render limit exceeded/);
  });

  it("gives a render one deadline for every part and the link rewrite together", () => {
    // A part or a rewrite that starts past the deadline stops at once with the time-limit error.
    const past = performance.now() - 1;
    expect(() => renderPart("hi", {}, { deadline: past })).toThrow(/render limit exceeded/);
    const claim = { origin: ORIGIN, projectId: ids.project, campaignId: ids.template, userId: ids.user };
    expect(() => trackLinks('<a href="https://a.example/">a</a>', claim, past)).toThrow(/render limit exceeded/);
    // Three parts sized to about half the limit each (the median of three timings): the message's render
    // either stops with the time-limit error or ends inside the one budget; never 200 ms a part.
    const loop = (n: number) => `{% for i in (1..${n}) %}{% for j in (1..100) %}{% endfor %}{% endfor %}`;
    renderPart(loop(200), {});
    const times = [0, 1, 2].map(() => {
      const t0 = performance.now();
      renderPart(loop(200), {});
      return performance.now() - t0;
    });
    const median = times.sort((a, b) => a - b)[1]!;
    const n = Math.max(1, Math.round((200 * 100) / Math.max(0.5, median)));
    const started = performance.now();
    let stopped = false;
    try {
      renderMessage(facts({ subject: loop(n), text: loop(n), html: loop(n) }, "v6"), ORIGIN);
    } catch (err) {
      expect((err as Error).message).toMatch(/render limit exceeded/);
      stopped = true;
    }
    if (!stopped) expect(performance.now() - started).toBeLessThan(RENDER_LIMIT_MS + 50);
  });

  it("gives the rendering that is sent an open pixel and links that credit the message; a preview neither", () => {
    const html = '<html><body><a href="https://shop.example/x">x</a></body></html>';
    const sent = renderMessage(facts({ html }, "pixel"), ORIGIN, { send: true });
    expect(sent.html).toMatch(/<img src="[^"]+\/o\/[^"]+" width="1" height="1"[^>]*><\/body><\/html>$/);
    expect(readOpenToken(tokenAfter(sent.html, "/o/"))).toEqual({ projectId: ids.project, messageId: facts({}).id });
    expect(readLinkToken(tokenAfter(sent.html, "/l/"))?.messageId).toBe(facts({}).id);
    expect(readUnsubscribeToken(tokenAfter(sent.unsubscribeUrl!, "/u/"))?.messageId).toBe(facts({}).id);
    const preview = renderMessage(facts({ html }, "pixel"), ORIGIN);
    expect(preview.html).not.toContain("/o/");
    expect(readLinkToken(tokenAfter(preview.html, "/l/"))?.messageId).toBeUndefined();
    const receipt = renderMessage({ ...facts({ html: "<p>Receipt</p>" }, "receipt"), transactional: true }, ORIGIN, {
      send: true,
    });
    expect(receipt.html).toBe("<p>Receipt</p>");
  });
});
