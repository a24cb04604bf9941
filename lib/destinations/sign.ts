import { Webhook } from "standardwebhooks";

export interface SigningSecrets {
  current: string;
  /** The secret before a rotation, still signing during the overlap. */
  previous?: string | null;
}

const cache = new Map<string, Webhook>();
const webhookFor = (secret: string) => {
  let w = cache.get(secret);
  if (!w) {
    if (cache.size > 1000) cache.clear();
    w = new Webhook(secret);
    cache.set(secret, w);
  }
  return w;
};

/**
 * The Standard Webhooks headers of one attempt: `webhook-signature` carries one `v1,…` per secret
 * (space-separated), so a receiver holding either secret verifies during a rotation.
 */
export function signedHeaders(secrets: SigningSecrets, webhookId: string, body: string, at = new Date()) {
  const signatures = [secrets.current, ...(secrets.previous ? [secrets.previous] : [])].map((s) =>
    webhookFor(s).sign(webhookId, at, body),
  );
  return {
    "content-type": "application/json",
    "user-agent": "Relay-Webhooks/1",
    "webhook-id": webhookId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}

/** The `webhook-id` of a delivery: the same on every attempt of it. */
export const webhookIdOf = (deliveryId: string) => `msg_${deliveryId.replaceAll("-", "")}`;

/** A new signing secret, `whsec_` and 32 random bytes in base64. */
export function newSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`;
}
