import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Twilio's request signature: base64(HMAC-SHA1(auth token, full URL + each POST parameter's name and
 * value, sorted by name)). See https://www.twilio.com/docs/usage/security#validating-requests
 */
export function twilioSignature(authToken: string, url: string, params: [string, string][]): string {
  const sorted = [...params].sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const data = url + sorted.map(([k, v]) => k + v).join("");
  return createHmac("sha1", authToken).update(data, "utf8").digest("base64");
}

export function isValidTwilioSignature(
  authToken: string,
  url: string,
  params: [string, string][],
  given: string | null,
): boolean {
  if (!given) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A Twilio webhook as its signature is checked: the URLs it may have been posted to, its fields, the signature. */
export interface TwilioRequest {
  /** Twilio signs the one URL configured for it; any of these verifying is enough. */
  urls: string[];
  params: [string, string][];
  signature: string | null;
}

/** Whether the request verifies with `authToken` at one of the URLs it may have been posted to. */
export function isSignedByTwilio(authToken: string, r: TwilioRequest): boolean {
  return r.urls.some((url) => isValidTwilioSignature(authToken, url, r.params, r.signature));
}
