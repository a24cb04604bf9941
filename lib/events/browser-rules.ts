import type { ProjectContext } from "@/lib/access/context";
import { Forbidden } from "@/lib/http/errors";

/**
 * A browser key's key is public: anyone who loads the page has it. An event with `match` reaches every
 * user whose data contains the filter (and can start their journeys), so only a server may send one; a
 * browser key sends events to the identifiers it names.
 */
export function refuseMatchFromBrowser(ctx: ProjectContext, events: ReadonlyArray<{ match?: unknown }>): void {
  if (ctx.actor.kind !== "api_key" || !ctx.actor.browser) return;
  const at = events.findIndex((e) => e.match !== undefined);
  if (at >= 0) {
    throw new Forbidden("A browser key may not send events by match; name the user with identifier.", {
      errors: [{ path: `[${at}].match`, message: "not allowed with a browser key" }],
    });
  }
}
