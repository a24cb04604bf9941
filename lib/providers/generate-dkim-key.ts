import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { messageProviders } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { Invalid, NotFound } from "@/lib/http/errors";
import { dkimRecord, newDkimPrivateKey, withDkim } from "./dkim";
import { forgetProviders } from "./load-provider";
import type { dkimRecordOutput, generateDkimBody } from "./schemas";
import { closeProviderPool } from "./smtp-pool";

/**
 * Makes a new 2048-bit RSA key for an e-mail provider, stores it sealed in place of any other, and
 * answers the TXT record to publish. The private key never leaves Relay.
 */
export async function generateDkimKey(
  ctx: ProjectContext,
  { id, input }: { id: string; input: z.output<typeof generateDkimBody> },
): Promise<z.infer<typeof dkimRecordOutput>> {
  const where = and(eq(messageProviders.projectId, ctx.projectId), eq(messageProviders.id, id));
  const [p] = await ctx.db.select().from(messageProviders).where(where);
  if (!p) throw new NotFound("No provider with this id in this project.");
  if (p.kind !== "smtp") throw new Invalid("Only an e-mail (SMTP) provider signs with DKIM.");
  const privateKey = newDkimPrivateKey();
  const config = withDkim(p.config, { ...input, private_key: privateKey });
  await ctx.db.update(messageProviders).set({ config, updatedAt: sql`now()` }).where(where);
  forgetProviders(ctx.projectId);
  closeProviderPool(id);
  return { ...input, record: { ...dkimRecord(input.domain, input.selector, privateKey), type: "TXT" } };
}
