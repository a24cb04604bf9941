import { createHmac, timingSafeEqual } from "node:crypto";
import { purposeKey } from "@/lib/signing/secret";

/*
 * The envelope sender of every e-mail when BOUNCE_DOMAIN is set: `b-<token>@<BOUNCE_DOMAIN>`, where the
 * token is the project's id, the message's id and a 48-bit MAC over both, in lower-case base32. Lower
 * case because mail servers may fold a local part's case; 38 bytes make 61 characters, so the local part
 * (`b-` and the token, 63) stays within SMTP's 64. A forger must guess 2^48 MACs through a rate-limited
 * inbound port; a bounce names nothing else, so one forged token could at most mark one message bounced.
 */

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const MAC_BYTES = 6;
const TOKEN_BYTES = 16 + 16 + MAC_BYTES;
const TOKEN_CHARS = Math.ceil((TOKEN_BYTES * 8) / 5);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface BounceTarget {
  projectId: string;
  messageId: string;
}

function base32(bytes: Buffer): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

function unbase32(text: string): Buffer | null {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) return null;
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  return Buffer.from(out);
}

const uuidBytes = (id: string) => Buffer.from(id.replaceAll("-", ""), "hex");
const uuidText = (b: Buffer) => {
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
const mac = (ids: Buffer) => createHmac("sha256", purposeKey("bounce")).update(ids).digest().subarray(0, MAC_BYTES);

/** The bounce address of one message, or null when BOUNCE_DOMAIN is not set. */
export function bounceAddress(target: BounceTarget, domain = process.env.BOUNCE_DOMAIN): string | null {
  if (!domain) return null;
  if (!UUID.test(target.projectId) || !UUID.test(target.messageId))
    throw new Error("bounce address: ids must be uuids");
  const ids = Buffer.concat([uuidBytes(target.projectId), uuidBytes(target.messageId)]);
  return `b-${base32(Buffer.concat([ids, mac(ids)]))}@${domain.toLowerCase()}`;
}

/**
 * The project and message a bounce address names when its token is intact (and, when `domain` is given,
 * it is at that domain), else null. Case-insensitive; never throws on bad input; the MAC is compared in
 * constant time.
 */
export function readBounceAddress(address: string, domain = process.env.BOUNCE_DOMAIN): BounceTarget | null {
  if (typeof address !== "string" || address.length > 320) return null;
  const at = address.lastIndexOf("@");
  if (at < 0) return null;
  const local = address.slice(0, at).toLowerCase();
  const host = address.slice(at + 1).toLowerCase();
  if (domain && host !== domain.toLowerCase()) return null;
  if (!local.startsWith("b-") || local.length !== 2 + TOKEN_CHARS) return null;
  const bytes = unbase32(local.slice(2));
  if (!bytes || bytes.length !== TOKEN_BYTES) return null;
  const ids = bytes.subarray(0, 32);
  const given = bytes.subarray(32);
  if (!timingSafeEqual(given, mac(ids))) return null;
  return { projectId: uuidText(ids.subarray(0, 16)), messageId: uuidText(ids.subarray(16)) };
}
