import { and, eq } from "drizzle-orm";
import type { AppContext } from "@/lib/access/context";
import { messageProviders, type SendChannel } from "@/db/schema";
import { unseal } from "@/lib/signing/seal";
import { type DkimKey, dkimKey } from "./dkim";

export interface LoadedProvider {
  id: string;
  kind: "smtp" | "twilio";
  /** The pool key: a provider changed is a new transport. */
  version: string;
  from: string;
  config: Record<string, string>;
  /** The SMTP URL with its password, or the Twilio auth token; null when it no longer unseals. */
  secret: string | null;
  ratePerSecond: number | null;
  /** The e-mail provider's DKIM key (null: none set, or it no longer unseals). */
  dkim: DkimKey | null;
}

/** A provider's DKIM key from its config: domain and selector in the clear, the private key sealed. */
function providerDkim(config: Record<string, string>): DkimKey | null {
  if (!config.dkim_domain || !config.dkim_selector || !config.dkim_key) return null;
  const pem = unseal(config.dkim_key);
  return pem ? dkimKey(config.dkim_domain, config.dkim_selector, pem) : null;
}

const TTL_MS = 5_000;
const cache = new Map<string, { at: number; provider: Promise<LoadedProvider | null> }>();

/** A project's provider for a channel (null: none), held for a few seconds so a batch reads it once. */
export function loadProvider(
  { db }: AppContext,
  { projectId, channel }: { projectId: string; channel: SendChannel },
): Promise<LoadedProvider | null> {
  const key = `${projectId}:${channel}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.provider;
  const provider = db
    .select()
    .from(messageProviders)
    .where(and(eq(messageProviders.projectId, projectId), eq(messageProviders.channel, channel)))
    .then(([p]) =>
      p
        ? {
            id: p.id,
            kind: p.kind,
            version: `${p.id}:${p.updatedAt.getTime()}`,
            from: p.from,
            config: p.config,
            secret: unseal(p.secretSealed),
            ratePerSecond: p.ratePerSecond,
            dkim: providerDkim(p.config),
          }
        : null,
    );
  provider.catch(() => cache.delete(key));
  cache.set(key, { at: Date.now(), provider });
  return provider;
}

/** Forgets a project's cached providers (after a change in this process). */
export function forgetProviders(projectId: string): void {
  for (const key of cache.keys()) if (key.startsWith(`${projectId}:`)) cache.delete(key);
}
