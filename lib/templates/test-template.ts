import { sql } from "drizzle-orm";
import type { z } from "zod";
import { queryRows } from "@/lib/db/sql";
import { attachSnippets } from "./attach-snippets";
import type { ProjectContext } from "@/lib/access/context";
import { isEmailAddress } from "@/lib/http/email-address";
import { Invalid, NotFound } from "@/lib/http/errors";
import { getTemplate } from "./get-template";
import { TemplateError } from "./liquid";
import { renderMessage } from "./render-message";
import type { testTemplateBody } from "./schemas";
import { loadPreviewFacts, type SendFacts } from "@/lib/messages/send-facts";
import { sendRendered } from "@/lib/messages/send-rendered";

const E164 = /^\+[1-9][0-9]{6,14}$/;

/**
 * Sends one rendering of a template to an address now (not logged as a message, not retried), as a user
 * or as an empty user, and answers what the provider said. The subject is marked `[test]`.
 */
export async function testTemplate(
  ctx: ProjectContext,
  { id, body, origin }: { id: string; body: z.output<typeof testTemplateBody>; origin: string },
) {
  const t = await getTemplate(ctx, id);
  if (t.channel === "email" ? !isEmailAddress(body.to) : !E164.test(body.to))
    throw new Invalid(`"to" must be ${t.channel === "email" ? "an e-mail address" : "an E.164 phone number"}.`, {
      errors: [{ path: "to", message: t.channel === "email" ? "an e-mail address" : "like +4915112345678" }],
    });
  let facts: SendFacts | null;
  if (body.user_id) {
    facts = await loadPreviewFacts(ctx, {
      projectId: ctx.projectId,
      templateId: id,
      userId: body.user_id,
      context: {},
    });
    if (!facts) throw new NotFound("No such user in this project.");
  } else {
    const [build] = await queryRows<{ html: string; locales: Record<string, string> }>(
      ctx.db,
      sql`select b.html, b.locales from message_templates t join template_builds b
        on b.project_id = t.project_id and b.id = t.build_id
        where t.project_id = ${ctx.projectId}::uuid and t.id = ${id}::uuid`,
    );
    facts = {
      ...emptyFacts,
      project_id: ctx.projectId,
      id: crypto.randomUUID(),
      user_id: crypto.randomUUID(),
      channel: t.channel,
      template_id: t.id,
      subject: t.subject,
      text: t.text,
      html: build?.html ?? t.html,
      built_locales: build?.locales ?? null,
      locales: t.locales,
      transactional: t.transactional,
      group_id: t.subscription_group?.id ?? null,
    };
  }
  if (!facts.snippets) await attachSnippets(ctx, { facts: [facts] });
  let rendered: ReturnType<typeof renderMessage>;
  try {
    rendered = renderMessage(facts, origin);
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    throw new Invalid(`The template does not render: ${err.message}.`, {
      errors: [{ path: "template", message: err.message }],
    });
  }
  const { result } = await sendRendered(ctx, {
    ...facts,
    transactional: true,
    broadcast_id: null,
    broadcast_rate: null,
    to: body.to,
    origin,
    rendered: { ...rendered, subject: `[test] ${rendered.subject}` },
  });
  return result.ok
    ? { sent: true, provider_message_id: result.providerMessageId, reason: null }
    : { sent: false, provider_message_id: null, reason: "reason" in result ? result.reason : "cancelled" };
}

const emptyFacts: Omit<
  SendFacts,
  | "project_id"
  | "id"
  | "user_id"
  | "channel"
  | "template_id"
  | "subject"
  | "text"
  | "html"
  | "locales"
  | "transactional"
  | "group_id"
  | "built_locales"
> = {
  broadcast_id: null,
  journey_entry_id: null,
  journey_step_key: null,
  journey_data: {},
  attempts: 0,
  email: null,
  phone: null,
  locale: null,
  timezone: null,
  user_data: {},
  identifiers: [],
  organization: null,
  template_updated_at: "",
  template_version_id: null,
  snippet_versions: null,
  project_name: "",
  frequency_cap: null,
  quiet_hours: null,
  policy: "opt_out",
  sub_state: null,
  opted_out: false,
  recent: 0,
  cap_reserved: false,
  broadcast_state: null,
  broadcast_rate: null,
};
