import { createHmac } from "node:crypto";
import { Unavailable } from "@/lib/http/errors";
import { log } from "@/lib/observability/logger";

/** Only for development and tests: links signed with it are forgeable by anyone who reads this file. */
const DEV_SECRET = "relay-development-signing-secret-do-not-use-in-production";
let warned = false;

/**
 * The server secret behind every signed link (unsubscribe, preference center, tracked links):
 * RELAY_SIGNING_SECRET, else AUTH_SECRET. Outside production a fixed development secret is used with a
 * warning; in production the signed-link features refuse to work (503) rather than sign with a
 * guessable key.
 */
export function signingSecret(): string {
  const secret = process.env.RELAY_SIGNING_SECRET || process.env.AUTH_SECRET;
  if (secret) {
    if (secret.length < 16)
      throw new Unavailable(
        "RELAY_SIGNING_SECRET is too short: use at least 16 characters (32 random bytes recommended).",
      );
    return secret;
  }
  if (process.env.NODE_ENV === "production") {
    throw new Unavailable("Signed links are disabled: set RELAY_SIGNING_SECRET (or AUTH_SECRET) on the server.");
  }
  if (!warned) {
    warned = true;
    log.warn(
      "RELAY_SIGNING_SECRET is not set: signing links with the development secret. Never do this in production.",
    );
  }
  return DEV_SECRET;
}

/** One key per purpose, so a token minted for one use can never verify as another. */
export function purposeKey(purpose: string): Buffer {
  return createHmac("sha256", signingSecret()).update(`relay/${purpose}/v1`).digest();
}
