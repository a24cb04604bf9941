import { randomFillSync } from "node:crypto";

/**
 * `n` time-ordered UUIDv7s (RFC 9562: 48-bit Unix milliseconds, version 7, variant 10, 74 random bits),
 * the layout of the database's uuid_generate_v7() (db/migrations/0000_uuidv7.sql). Drawn in the web
 * process so a batch insert can carry its ids instead of calling that function once per row (one
 * OpenSSL call each): here one randomFillSync serves the whole batch, and small calls (a single
 * upsert's two or three ids) take their bytes from a pool that one draw fills for many calls, as Node's
 * own randomUUID does (docs/decisions/0003-ids-made-in-the-process.md). Hand-written because it is
 * twenty lines and the npm `uuid` package draws its random bytes per call.
 */
export function uuidv7s(n: number, now = Date.now()): string[] {
  const random = randomBytes(16 * n);
  const ms = Buffer.alloc(8);
  ms.writeBigUInt64BE(BigInt(now));
  for (let o = 0; o < 16 * n; o += 16) {
    ms.copy(random, o, 2, 8);
    random[o + 6] = 0x70 | (random[o + 6]! & 0x0f);
    random[o + 8] = 0x80 | (random[o + 8]! & 0x3f);
  }
  // One hex encoding for the batch, cut into ids: cheaper than a Buffer view and an encoding per id.
  const h = random.toString("hex");
  const out: string[] = new Array(n);
  for (let i = 0, k = 0; i < n; i++, k += 32) {
    out[i] =
      `${h.slice(k, k + 8)}-${h.slice(k + 8, k + 12)}-${h.slice(k + 12, k + 16)}-${h.slice(k + 16, k + 20)}-${h.slice(k + 20, k + 32)}`;
  }
  return out;
}

/** Bytes of randomness one draw puts in the pool; larger requests are drawn on their own. */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

/** `size` random bytes no other call gets (each pooled byte is handed out once). */
function randomBytes(size: number): Buffer {
  if (size > POOL_BYTES) return randomFillSync(Buffer.alloc(size));
  if (used + size > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    used = 0;
  }
  used += size;
  return pool.subarray(used - size, used);
}
