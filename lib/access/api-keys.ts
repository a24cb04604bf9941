import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys, type ApiKey } from "@/db/schema";
import type { AppContext } from "./context";
import type { Role } from "./roles";

/*
 * Secrets look like `rk_3f9a2c1d7b6e_<32 random base62-ish chars>`. The first 15 characters are the
 * visible prefix stored in clear; the whole secret is only ever stored as its SHA-256.
 */
const PREFIX_LENGTH = 15;

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function generateSecret(): string {
  return `rk_${randomBytes(6).toString("hex")}_${randomBytes(24).toString("base64url")}`;
}

export interface CreatedKey {
  key: Omit<ApiKey, "secretHash">;
  secret: string;
}

export async function createApiKey(
  ctx: AppContext<Db>,
  input: {
    projectId: string;
    name: string;
    role: Role;
    createdBy?: string | null;
    rateLimitPerSecond?: number;
    rateLimitBurst?: number;
    allowedOrigins?: string[] | null;
  },
): Promise<CreatedKey> {
  const secret = generateSecret();
  const [row] = await ctx.db
    .insert(apiKeys)
    .values({
      projectId: input.projectId,
      name: input.name,
      role: input.role,
      prefix: secret.slice(0, PREFIX_LENGTH),
      secretHash: hashSecret(secret),
      createdBy: input.createdBy ?? null,
      ...(input.rateLimitPerSecond ? { rateLimitPerSecond: input.rateLimitPerSecond } : {}),
      ...(input.rateLimitBurst ? { rateLimitBurst: input.rateLimitBurst } : {}),
      allowedOrigins: input.allowedOrigins ?? null,
    })
    .returning();
  const { secretHash: _hash, ...key } = row!;
  return { key, secret };
}

/** The live (unrevoked) key whose secret has this SHA-256, or null (key-cache.ts is the request path's way in). */
export async function findKeyByHash(ctx: AppContext<Db>, secretHash: string): Promise<ApiKey | null> {
  const [row] = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.secretHash, secretHash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row ?? null;
}

const lastTouched = new Map<string, number>();

/** Records last use at most once a minute per key per process, so the hot path does not write on every request. */
export function touchKey(ctx: AppContext<Db>, keyId: string): void {
  const now = Date.now();
  if (now - (lastTouched.get(keyId) ?? 0) < 60_000) return;
  lastTouched.set(keyId, now);
  ctx.db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(eq(apiKeys.id, keyId))
    .catch(() => lastTouched.delete(keyId));
}
