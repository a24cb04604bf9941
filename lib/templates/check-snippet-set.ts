import { eq } from "drizzle-orm";
import { layouts, messageTemplates } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { Invalid } from "@/lib/http/errors";
import { snippetProblem } from "./snippet-graph";

/**
 * The project's snippets as they would be after a save or delete (`bodies`): no cycle, no nesting past
 * the limit from any snippet, and every template and layout still finds what it renders; else a 400
 * naming the cycle or the template that would break.
 */
export async function checkSnippetSet(ctx: ProjectContext, { bodies }: { bodies: Map<string, string> }) {
  const refuse = (message: string) => {
    throw new Invalid(`The change to the snippets is refused: ${message}.`, { errors: [{ path: "body", message }] });
  };
  const all = snippetProblem(
    bodies,
    [...bodies.keys()].map((n) => `{% render '${n}' %}`),
  );
  if (all) refuse(all);
  const templates = await ctx.db
    .select({
      name: messageTemplates.name,
      subject: messageTemplates.subject,
      text: messageTemplates.text,
      html: messageTemplates.html,
      locales: messageTemplates.locales,
    })
    .from(messageTemplates)
    .where(eq(messageTemplates.projectId, ctx.projectId));
  for (const t of templates) {
    const sources = [
      t.subject,
      t.text,
      t.html,
      ...Object.values(t.locales).flatMap((v) => [v.subject ?? "", v.text ?? "", v.html ?? ""]),
    ];
    const problem = snippetProblem(bodies, sources);
    if (problem) refuse(`the template "${t.name}" would break: ${problem}`);
  }
  const ls = await ctx.db
    .select({ name: layouts.name, body: layouts.body })
    .from(layouts)
    .where(eq(layouts.projectId, ctx.projectId));
  for (const l of ls) {
    const problem = snippetProblem(bodies, [l.body]);
    if (problem) refuse(`the layout "${l.name}" would break: ${problem}`);
  }
}
