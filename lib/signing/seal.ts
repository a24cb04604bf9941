import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { purposeKey } from "./secret";

/**
 * Secrets we must store to use later (a project's Twilio auth token) are sealed with AES-256-GCM under
 * a key derived from the server secret, so a database dump alone does not reveal them. Rotating the
 * server secret makes them unreadable: the admin re-enters them.
 */
export function seal(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", purposeKey("sealed-secret"), iv);
  const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ct.toString("base64url")].join(
    ".",
  );
}

/** The plaintext, or null when it was sealed under another secret or altered. */
export function unseal(sealed: string): string | null {
  const [v, iv, tag, ct] = sealed.split(".");
  if (v !== "v1" || !iv || !tag || ct === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", purposeKey("sealed-secret"), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
