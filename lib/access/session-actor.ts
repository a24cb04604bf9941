import type { Db } from "@/db/client";
import type { Actor } from "./context";

/**
 * Console sessions as a credential for the admin API. Replaced by the console issue (next-auth); until
 * then the admin API is reachable with API keys only, and this resolves nobody.
 */
export async function resolveSessionActor(_db: Db, _req: Request, _projectId: string): Promise<Actor | null> {
  return null;
}
