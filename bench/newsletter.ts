import { getSql } from "../db/client";
import { messageIdFor } from "../lib/messages/send-rendered";
import type { RenderedMessage } from "../lib/templates/render-message";
import type { ProjectContext } from "../lib/access/context";
import { createList } from "../lib/lists/create-list";
import { listInput } from "../lib/lists/schemas";
import { createProvider } from "../lib/providers/create-provider";
import { createProviderBody } from "../lib/providers/schemas";
import { createGroup } from "../lib/subscriptions/create-group";
import { groupInput } from "../lib/subscriptions/schemas";
import { createTemplate } from "../lib/templates/create-template";
import { createTemplateBody } from "../lib/templates/schemas";

/**
 * The broadcast benches' sending set-up (messages.bench.ts, feedback.bench.ts): the project's SMTP provider
 * at `url` (with a `feedback` setting when given), a "Newsletter" group, and its non-transactional template
 * (subject, text and html with a loop, two tracked links, the unsubscribe and preferences links).
 */
export async function newsletterSetup(ctx: ProjectContext, opts: { url: string; feedback?: unknown }) {
  const provider = await createProvider(
    ctx,
    createProviderBody.parse({
      channel: "email",
      kind: "smtp",
      name: "sink",
      url: opts.url,
      from: "Acme <news@acme.example>",
      ...(opts.feedback ? { feedback: opts.feedback } : {}),
    }),
  );
  const group = await createGroup(ctx, groupInput.parse({ name: "Newsletter", channel: "email" }));
  const template = await createTemplate(
    ctx,
    createTemplateBody.parse({
      name: "November news",
      channel: "email",
      subscription_group: group.id,
      subject: "{{ user.data.first_name | default: 'Hello' }}, your {{ user.data.plan }} plan in November",
      text:
        "Hi {{ user.data.first_name | default: 'there' }},\n\nWhat's new for {{ user.data.plan | upcase }} accounts: " +
        "{% for f in user.data.features %}{{ f }}{% unless forloop.last %}, {% endunless %}{% endfor %}.\n\n" +
        "Read more: https://acme.example/news/november\nUnsubscribe: {{ unsubscribe_url }}\n",
      html:
        "<h1>Hi {{ user.data.first_name | default: 'there' }}</h1><p>What's new for <b>{{ user.data.plan }}</b>:</p><ul>" +
        "{% for f in user.data.features %}<li>{{ f }}</li>{% endfor %}</ul>" +
        '<p><a href="https://acme.example/news/november?utm_source=relay">Read more</a> · ' +
        '<a href="https://acme.example/account">Your account</a></p>' +
        '<p><a href="{{ unsubscribe_url }}">Unsubscribe</a> · <a href="{{ preferences_url }}">Preferences</a></p>',
    }),
  );
  return { provider, group, template };
}

/**
 * A static list "everyone" of `count` new users seeded in SQL (`<prefix><n>@bench.test`, a first name, a
 * plan and three features for the template's loop), analyzed so the broadcast's start is planned as it
 * would be on a settled table.
 */
export async function newsletterList(ctx: ProjectContext, opts: { count: number; prefix: string }) {
  const sql = getSql();
  const list = await createList(ctx, listInput.parse({ name: "everyone", kind: "static" }));
  await sql`insert into users (project_id, email, data)
    select ${ctx.projectId}, ${opts.prefix} || g || '@bench.test',
      jsonb_build_object('first_name', 'User ' || g, 'plan', (array['free', 'pro', 'team'])[g % 3 + 1],
        'features', jsonb_build_array('journeys', 'broadcasts', 'lists'))
    from generate_series(1, ${opts.count}) g`;
  await sql`insert into list_members (project_id, list_id, user_id)
    select project_id, ${list.id}, id from users where project_id = ${ctx.projectId} and email like ${`${opts.prefix}%`}`;
  await sql`vacuum analyze users, list_members`;
  return list;
}

/**
 * A rendered newsletter message as the benches hand it to nodemailer: the provider's From, the rendered
 * parts, the Message-ID and the one-click unsubscribe headers the worker sets.
 */
export function newsletterMail(f: { id: string; email: string | null }, r: RenderedMessage, origin: string) {
  return {
    from: "Acme <news@acme.example>",
    to: f.email!,
    subject: r.subject,
    text: r.text,
    html: r.html,
    messageId: messageIdFor(f.id, origin),
    headers: {
      "List-Unsubscribe": `<${r.unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
