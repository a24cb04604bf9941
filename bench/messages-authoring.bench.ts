import { loadavg } from "node:os";
import { closeDatabase, getDb } from "../db/client";
import { systemContext } from "../lib/access/context";
import { loadSendFacts } from "../lib/messages/send-facts";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { createGroup } from "../lib/subscriptions/create-group";
import { groupInput } from "../lib/subscriptions/schemas";
import { createTemplate } from "../lib/templates/create-template";
import { renderMessage } from "../lib/templates/render-message";
import { saveLayout } from "../lib/templates/save-layout";
import { saveSnippet } from "../lib/templates/save-snippet";
import { createTemplateBody } from "../lib/templates/schemas";
import { benchDatabase } from "./harness";

/*
 * The render phase with authoring (issue 58's ratio), apart from messages.bench.ts so each can change
 * alone. Two templates render to the same mail: "authored" is an html template inside a layout (with a <style> block, inlined when saved) that renders two snippets; "plain" is the
 * same content written out whole, its styles already inline, with no layout and no snippets. Each
 * round renders BENCH_AUTHORING_USERS (20,000) messages of each in turn, facts read beforehand (with the
 * batch's snippets), timed around renderMessage alone. Ratio authored / plain, median of BENCH_ROUNDS
 * (3). Both have a written text part; the cost of generating one from the html (html-to-text) is the
 * third line, "generated text", the authored template without its text part.
 */
const USERS = Number(process.env.BENCH_AUTHORING_USERS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ORIGIN = "https://relay.bench.test";
process.env.AUTH_SECRET ??= "bench-secret-not-for-production";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString("en");

const STYLE =
  "<style>.btn { background: #0a7; color: #fff; padding: 8px 16px; } .muted { color: #888; font-size: 12px; }</style>";
const HEADER = '<div class="muted">{{ project.name }} news</div>';
const FOOTER = '<p class="muted">You get this as {{ email }}. <a href="{{ unsubscribe }}">Unsubscribe</a></p>';
const BODY =
  "<h1>Hi {{ user.data.first_name | default: 'there' }}</h1><p>What's new for <b>{{ user.data.plan }}</b>:</p><ul>" +
  "{% for f in user.data.features %}<li>{{ f }}</li>{% endfor %}</ul>" +
  '<p><a class="btn" href="https://acme.example/news/november?utm_source=relay">Read more</a></p>';
const TEXT = "Hi {{ user.data.first_name | default: 'there' }}, news for {{ user.data.plan }}. {{ unsubscribe_url }}";

const { db, sql } = await benchDatabase("relay_bench_authoring");
try {
  const { project } = await createProjectWithOwner(
    { db: getDb() },
    { orgName: "bench", projectName: "authoring", ownerEmail: "bench@example.com" },
  );
  const ctx = systemContext(getDb(), project.id);
  const group = await createGroup(ctx, groupInput.parse({ name: "Newsletter", channel: "email" }));
  await saveSnippet(ctx, { fields: { name: "header", body: HEADER } });
  await saveSnippet(ctx, { fields: { name: "footer", body: FOOTER } });
  const layout = await saveLayout(ctx, {
    fields: {
      name: "Newsletter",
      format: "html",
      body: `<html><head>${STYLE}</head><body>{% render 'header' %}{{ content }}{% render 'footer', email: user.email, unsubscribe: unsubscribe_url %}</body></html>`,
    },
  });
  const make = (name: string, fields: Record<string, unknown>) =>
    createTemplate(ctx, createTemplateBody.parse({ name, channel: "email", subscription_group: group.id, ...fields }));
  const authored = await make("authored", { subject: "News", text: TEXT, html: BODY, layout_id: layout.id });
  const generated = await make("generated text", { subject: "News", html: BODY, layout_id: layout.id });
  // The same mail written out: the layout's text, the snippets pasted in, the styles already inline.
  const plain = await make("plain", {
    subject: "News",
    text: TEXT,
    html:
      '<html><head></head><body><div class="muted" style="color: #888; font-size: 12px;">{{ project.name }} news</div>' +
      BODY.replace('class="btn"', 'class="btn" style="background: #0a7; color: #fff; padding: 8px 16px;"') +
      '<p class="muted" style="color: #888; font-size: 12px;">You get this as {{ user.email }}. <a href="{{ unsubscribe_url }}">Unsubscribe</a></p></body></html>',
  });

  await sql`insert into users (project_id, email, data)
    select ${project.id}, 'u' || g || '@bench.test',
      jsonb_build_object('first_name', 'User ' || g, 'plan', (array['free', 'pro', 'team'])[g % 3 + 1],
        'features', jsonb_build_array('journeys', 'broadcasts', 'lists'))
    from generate_series(1, ${USERS}) g`;
  const factsOf = async (templateId: string) => {
    const ids = await sql<{ id: string }[]>`insert into messages (project_id, template_id, template_version_id,
        template_build_id, user_id, channel, journey_entry_id, journey_step_key, next_attempt_at)
      select ${project.id}, t.id, t.version_id, t.build_id, u.id, 'email', gen_random_uuid(), 'send', '2999-01-01'
      from users u join message_templates t on t.project_id = u.project_id and t.id = ${templateId}
      where u.project_id = ${project.id} returning id`;
    const facts = [];
    for (let i = 0; i < ids.length; i += 5_000)
      facts.push(
        ...(await loadSendFacts(ctx, {
          keys: ids.slice(i, i + 5_000).map((r) => ({ projectId: project.id, id: r.id })),
          render: true,
        })),
      );
    return facts;
  };
  const sets = {
    authored: await factsOf(authored.id),
    plain: await factsOf(plain.id),
    generated: await factsOf(generated.id),
  };
  const sample = (f: (typeof sets)["plain"][number]) => renderMessage(f, ORIGIN).html.replace(/\/l\/[^"]+/g, "/l/…");
  if (
    sample(sets.authored[0]!).replace(/ class="[^"]*"/g, "").length !==
    sample(sets.plain[0]!).replace(/ class="[^"]*"/g, "").length
  )
    console.log(
      "note: the two renderings differ in length:\n",
      sample(sets.authored[0]!),
      "\n",
      sample(sets.plain[0]!),
    );

  const time = (facts: (typeof sets)["plain"]) => {
    const t = performance.now();
    let chars = 0;
    for (const f of facts) {
      const r = renderMessage(f, ORIGIN);
      chars += r.subject.length + r.text.length + r.html.length;
    }
    if (chars < facts.length) throw new Error("nothing rendered");
    return facts.length / ((performance.now() - t) / 1000);
  };
  // One untimed pass each: parsed templates cached, as in a worker that has been running.
  time(sets.authored.slice(0, 500));
  time(sets.plain.slice(0, 500));
  time(sets.generated.slice(0, 500));
  const ratios: number[] = [];
  const textRatios: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const p = time(sets.plain);
    const a = time(sets.authored);
    const g = time(sets.generated);
    ratios.push(a / p);
    textRatios.push(g / p);
    console.log(
      `round ${round}: plain ${fmt(p)}/s, authored ${fmt(a)}/s (${(a / p).toFixed(2)}), generated text ${fmt(g)}/s (${(g / p).toFixed(2)}), load ${loadavg()[0]!.toFixed(2)}`,
    );
  }
  console.log(
    `render with a layout, two snippets and inlined CSS: ${median(ratios).toFixed(2)} × plain (median of ${ROUNDS}; target ≥ 0.5); with a generated text part: ${median(textRatios).toFixed(2)} ×`,
  );
} finally {
  await closeDatabase();
  await db.drop();
}
