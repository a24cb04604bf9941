import type { ProjectContext } from "@/lib/access/context";
import { Invalid } from "@/lib/http/errors";
import { resolveGroup } from "@/lib/subscriptions/resolve-groups";
import { checkSnippetUse } from "./current-snippets";
import { compilePart, MAX_SMS_CHARS } from "./liquid";
import type { TemplateFields } from "./template-fields";

/** Compiles every part (a 400 names the part, line and column) and resolves the group for the channel. */
export async function checkTemplate(ctx: ProjectContext, t: TemplateFields): Promise<{ groupId: string | null }> {
  compilePart(t.subject, "subject");
  compilePart(t.text, "text");
  compilePart(t.html, "html");
  for (const [locale, v] of Object.entries(t.locales))
    for (const key of ["subject", "text", "html"] as const)
      if (v[key] !== undefined) compilePart(v[key], `locales.${locale}.${key}`);
  const sources = [
    t.subject,
    t.text,
    t.html,
    ...Object.values(t.locales).flatMap((v) => [v.subject ?? "", v.text ?? "", v.html ?? ""]),
  ];
  await checkSnippetUse(ctx, { sources, path: "template" });
  if (t.channel === "sms" && t.html)
    throw new Invalid("An SMS template has no html part.", { errors: [{ path: "html", message: "not for SMS" }] });
  if (t.channel === "sms") {
    const long = [
      { path: "text", text: t.text },
      ...Object.entries(t.locales).map(([l, v]) => ({ path: `locales.${l}.text`, text: v.text ?? "" })),
    ].find((p) => p.text.length > MAX_SMS_CHARS);
    if (long)
      throw new Invalid(`An SMS body is at most ${MAX_SMS_CHARS} characters; ${long.path} has ${long.text.length}.`, {
        errors: [{ path: long.path, message: `at most ${MAX_SMS_CHARS} characters for SMS` }],
      });
  }
  if (!t.group) {
    if (!t.transactional)
      throw new Invalid("A template belongs to a subscription group unless it is transactional.", {
        errors: [{ path: "subscription_group", message: "required unless transactional is true" }],
      });
    return { groupId: null };
  }
  const group = await resolveGroup(ctx, { ref: t.group, path: "subscription_group" });
  if (group.channel !== t.channel)
    throw new Invalid(`The group "${group.name}" is for ${group.channel}, the template for ${t.channel}.`, {
      errors: [{ path: "subscription_group", message: `a ${t.channel} group` }],
    });
  return { groupId: group.id };
}
