import type { ProjectContext } from "../lib/access/context";
import { createTemplate } from "../lib/templates/create-template";
import { createTemplateBody } from "../lib/templates/schemas";

/**
 * The transactional benches' template (transactional.bench.ts, tools/send-api-cost.ts): a receipt that
 * renders the send API's `data` (an order id, its items in a loop, a total) and the user's first name.
 */
export function receiptTemplate(ctx: ProjectContext) {
  return createTemplate(
    ctx,
    createTemplateBody.parse({
      name: "Receipt",
      channel: "email",
      transactional: true,
      subject: "Your order {{ data.order_id }}",
      text: "Hi {{ user.data.first_name }},\n\n{% for i in data.items %}{{ i.qty }} × {{ i.name }}\n{% endfor %}Total: {{ data.total }}\n",
      html: "<p>Hi {{ user.data.first_name }}</p><ul>{% for i in data.items %}<li>{{ i.qty }} × {{ i.name }}</li>{% endfor %}</ul><p>Total: {{ data.total }}</p>",
    }),
  );
}
