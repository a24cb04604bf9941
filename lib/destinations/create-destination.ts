import type { z } from "zod";
import { destinations } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { Invalid } from "@/lib/http/errors";
import { seal } from "@/lib/signing/seal";
import { urlRefusal } from "./check-url";
import { getDestination } from "./get-destination";
import type { createDestinationBody } from "./schemas";
import { newSecret } from "./sign";

/** 400 naming `url` when the URL may not be a destination (check-url.ts). */
export function assertUrlAllowed(url: string): void {
  const why = urlRefusal(url);
  if (why) throw new Invalid(`The destination URL ${why}.`, { errors: [{ path: "url", message: why }] });
}

/** Creates a destination with a new signing secret, returned this once (only a sealed copy is kept). */
export async function createDestination(ctx: ProjectContext, input: z.output<typeof createDestinationBody>) {
  assertUrlAllowed(input.url);
  const secret = newSecret();
  const [row] = await ctx.db
    .insert(destinations)
    .values({
      projectId: ctx.projectId,
      name: input.name,
      url: input.url,
      events: input.events,
      filter: input.filter ?? null,
      enabled: input.enabled,
      secretSealed: seal(secret),
    })
    .returning({ id: destinations.id });
  return { ...(await getDestination(ctx, row!.id)), secret };
}
