import type { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { BUDGETS } from "@/lib/http/budgets";
import { Invalid, NotFound } from "@/lib/http/errors";
import { limitOrThrow } from "@/lib/http/rate-limit";
import { resolveIdentifiers } from "@/lib/identity/resolve";
import { getTemplate } from "./get-template";
import { TemplateError } from "./liquid";
import { mayMintLinks, renderMessage } from "./render-message";
import type { previewTemplateBody } from "./schemas";
import { loadPreviewFacts } from "@/lib/messages/send-facts";

/** The user a preview or test send renders for: by id or identifiers, 404 when not in the project. */
export async function previewUserId(
  ctx: ProjectContext,
  input: { user_id?: string; identifier?: z.output<typeof previewTemplateBody>["identifier"] },
): Promise<string> {
  const id =
    input.user_id ??
    (input.identifier ? await resolveIdentifiers(ctx, { kind: "user", identifier: input.identifier }) : null);
  if (!id) throw new NotFound("No such user in this project.");
  return id;
}

/**
 * A template rendered for one user, as that user's message would be (tracked links included, for an
 * editor or above; placeholders for a lower role); nothing is sent.
 */
export async function previewTemplate(
  ctx: ProjectContext,
  { id, body, origin }: { id: string; body: z.output<typeof previewTemplateBody>; origin: string },
) {
  await getTemplate(ctx, id);
  await limitOrThrow("render:project", ctx.projectId, BUDGETS.rendersPerProject(), "of previews for this project");
  const userId = await previewUserId(ctx, body);
  const facts = await loadPreviewFacts(ctx, {
    projectId: ctx.projectId,
    templateId: id,
    userId,
    context: body.context ?? {},
  });
  if (!facts) throw new NotFound("No such user in this project.");
  // A locale asked for is the one rendered (the console's locale tabs), as if it were the user's.
  if (body.locale !== undefined) facts.locale = body.locale;
  try {
    const r = renderMessage(facts, origin, { placeholders: !mayMintLinks(ctx.actor) });
    return { locale: r.locale, subject: r.subject, text: r.text, html: r.html };
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    const where = err.line === null ? "" : ` at line ${err.line}, column ${err.column}`;
    throw new Invalid(`The template does not render for this user: ${err.message}${where}.`, {
      errors: [{ path: "template", message: `${err.message}${where}` }],
    });
  }
}
