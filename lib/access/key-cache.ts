import type postgres from "postgres";
import { getListenSql, type Db } from "@/db/client";
import type { ApiKey } from "@/db/schema";
import { KEYS_CHANNEL } from "@/lib/queue/jobs";
import { findKeyByHash, hashSecret } from "./api-keys";
import type { AppContext } from "./context";
import { processSingleton } from "@/lib/process/singleton";

/**
 * The keys this process has looked up, for KEY_CACHE_SECONDS (default 10; 0 turns the cache off), so a
 * keyed request does not spend a database round trip on its key. Staleness is bounded two ways:
 * - every change to a key row, and every removal, is announced on KEYS_CHANNEL at commit (a trigger,
 *   migration 0018), and this process drops everything it holds when it hears one;
 * - nothing is kept unless the LISTEN connection is up, everything is dropped each time it (re)connects,
 *   and an entry is kept only if no announcement came while its lookup was in flight (`generation`).
 * So a revoked key stops working in every web process as soon as the revocation commits; only if the
 * listening connection drops unnoticed can a process use what it holds for up to the TTL.
 * Unknown secrets are never kept (a caller guessing keys cannot fill memory); at most MAX_ENTRIES are.
 */
const MAX_ENTRIES = 10_000;

interface Listener {
  live: boolean;
}

type Shared = {
  generation: number;
  entries: Map<string, { key: ApiKey; until: number }>;
  listeners: Map<postgres.Sql, Listener>;
};
// One per process: the admin route that revokes a key must clear what the client routes hold. One
// listener per pool.
const shared: Shared = processSingleton("keyCache", () => ({
  generation: 0,
  entries: new Map(),
  listeners: new Map(),
}));

function ttlMs(): number {
  const s = Number(process.env.KEY_CACHE_SECONDS ?? 10);
  return Number.isFinite(s) && s > 0 ? s * 1000 : 0;
}

function dropAll() {
  shared.generation++;
  shared.entries.clear();
}

/** Starts listening, once per pool (a test that closes and reopens the pool gets a new one). */
function listening(): Listener {
  const sql = getListenSql();
  const known = shared.listeners.get(sql);
  if (known) return known;
  dropAll();
  const s: Listener = { live: false };
  shared.listeners.set(sql, s);
  sql
    .listen(KEYS_CHANNEL, dropAll, () => {
      // Called on the first LISTEN and again after each reconnect: what was held may have missed news.
      dropAll();
      s.live = true;
    })
    // A first LISTEN that fails leaves nothing kept; postgres.js listens again when its connection
    // comes back, and the callback above then turns the cache on.
    .catch(() => {
      s.live = false;
    });
  return s;
}

/** The live (unrevoked) key for a secret, or null: from memory when this process holds it. */
export async function findKeyCached(ctx: AppContext<Db>, secret: string): Promise<ApiKey | null> {
  const ttl = ttlMs();
  const hash = hashSecret(secret);
  if (!ttl) return findKeyByHash(ctx, hash);
  const s = listening();
  const { entries } = shared;
  const now = Date.now();
  const hit = entries.get(hash);
  if (hit && hit.until > now && s.live) return hit.key;
  const before = shared.generation;
  const key = await findKeyByHash(ctx, hash);
  if (key && s.live && before === shared.generation) {
    entries.delete(hash);
    entries.set(hash, { key, until: now + ttl });
    // Oldest first: a Map iterates in insertion order.
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  }
  return key;
}

/** Drops what this process holds (the verbs that change keys call it, so their own process never waits for the announcement). */
export function forgetKeys(): void {
  dropAll();
}
