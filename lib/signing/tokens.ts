import { createHmac, timingSafeEqual } from "node:crypto";
import { purposeKey } from "./secret";

export type TokenPurpose = "unsubscribe" | "preferences" | "link" | "open";

/**
 * A signed token is `base64url(JSON payload) . base64url(HMAC-SHA256)`, keyed per purpose. The payload
 * names the project, user and (for unsubscribe) the group or (for links) the campaign and URL, so a
 * token cannot be moved to another user, group or project without breaking the MAC.
 */
export function signToken(purpose: TokenPurpose, payload: Record<string, unknown>): string {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${createHmac("sha256", purposeKey(purpose)).update(body).digest("base64url")}`;
}

/** The payload when the token is intact and for this purpose, else null. Never throws on bad input. */
export function verifyToken(purpose: TokenPurpose, token: string): Record<string, unknown> | null {
  if (typeof token !== "string" || token.length > 8192) return null;
  const parts = token.split(".");
  if (parts.length !== 2 || !parts[0] || !parts[1]) return null;
  const [body, sig] = parts as [string, string];
  if (!/^[A-Za-z0-9_-]+$/.test(body) || !/^[A-Za-z0-9_-]+$/.test(sig)) return null;
  // Compare the encoded text, not decoded bytes: base64url's unused trailing bits would otherwise let
  // several spellings of one signature pass.
  const given = Buffer.from(sig);
  const expected = Buffer.from(mac(purpose, body).toString("base64url"));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    return payload && typeof payload === "object" && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function mac(purpose: TokenPurpose, body: string): Buffer {
  return createHmac("sha256", purposeKey(purpose)).update(body).digest();
}
