import { createHmac, createSecretKey, type KeyObject } from "node:crypto";
import { Unavailable } from "@/lib/http/errors";
import { log } from "@/lib/observability/logger";

/** Only for development and tests: links signed with it are forgeable by anyone who reads this file. */
const DEV_SECRET = "relay-development-signing-secret-do-not-use-in-production";
let warned = false;
let pinned: string | undefined;

/**
 * Runs `fn` (synchronous) with the secret read once: a message signs several tokens, and reading the
 * environment for each was a measurable part of rendering it.
 */
export function withSigningSecret<T>(fn: () => T): T {
  if (pinned !== undefined) return fn();
  pinned = signingSecret();
  try {
    return fn();
  } finally {
    pinned = undefined;
  }
}

/**
 * The server secret behind every signed link (unsubscribe, preference center, tracked links):
 * RELAY_SIGNING_SECRET, else AUTH_SECRET. Outside production a fixed development secret is used with a
 * warning; in production the signed-link features refuse to work (503) rather than sign with a
 * guessable key.
 */
export function signingSecret(): string {
  if (pinned !== undefined) return pinned;
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

const derived = new Map<string, KeyObject>();

/**
 * One key per purpose, so a token minted for one use can never verify as another. Derived once per
 * (secret, purpose) and kept as a KeyObject (importing a raw key on every MAC cost more than the MAC): a
 * broadcast signs several tokens per message.
 * Keyed by the secret too, so a changed secret (a rotation, a test) takes effect at once.
 */
export function purposeKey(purpose: string): KeyObject {
  const secret = signingSecret();
  const id = `${purpose}\u0000${secret}`;
  let key = derived.get(id);
  if (!key) {
    key = createSecretKey(createHmac("sha256", secret).update(`relay/${purpose}/v1`).digest());
    if (derived.size >= 64) derived.clear();
    derived.set(id, key);
  }
  return key;
}
