import { describe, expect, it } from "vitest";
import { isValidTwilioSignature, twilioSignature } from "./twilio-signature";

// The worked example of Twilio's webhook security documentation (auth token 12345).
const url = "https://mycompany.com/myapp.php?foo=1&bar=2";
const params: [string, string][] = [
  ["Digits", "1234"],
  ["To", "+18005551212"],
  ["From", "+14158675310"],
  ["Caller", "+14158675310"],
  ["CallSid", "CA1234567890ABCDE"],
];
const expected = "GvWf1cFY/Q7PnoempGyD5oXAezc=";

describe("twilioSignature", () => {
  it("computes the documented signature", () => {
    expect(twilioSignature("12345", url, params)).toBe(expected);
  });
  it("accepts it and refuses a changed parameter, URL, token or missing signature", () => {
    expect(isValidTwilioSignature("12345", url, params, expected)).toBe(true);
    expect(
      isValidTwilioSignature(
        "12345",
        url,
        params.map(([k, v]) => [k, k === "Digits" ? "9999" : v]),
        expected,
      ),
    ).toBe(false);
    expect(isValidTwilioSignature("12345", url.replace("https", "http"), params, expected)).toBe(false);
    expect(isValidTwilioSignature("54321", url, params, expected)).toBe(false);
    expect(isValidTwilioSignature("12345", url, params, null)).toBe(false);
    expect(isValidTwilioSignature("12345", url, params, expected.slice(0, -1))).toBe(false);
  });
});
