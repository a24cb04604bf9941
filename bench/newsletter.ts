import type { ProjectContext } from "../lib/access/context";
import { createProvider } from "../lib/providers/create-provider";
import { createProviderBody } from "../lib/providers/schemas";
import { createGroup } from "../lib/subscriptions/create-group";
import { groupInput } from "../lib/subscriptions/schemas";
import { createTemplate } from "../lib/templates/create-template";
import { createTemplateBody } from "../lib/templates/schemas";

/**
 * feedback.bench.ts's sending set-up, as messages.bench.ts makes its own: the project's SMTP provider
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
