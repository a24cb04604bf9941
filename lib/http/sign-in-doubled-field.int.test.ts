import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { createTestAdmin } from "../../scripts/test/sessions";
import { doorsServerForFile, freshAddress, outboxPath, server } from "../../test/fixtures/doors";

/*
 * Issue 43: Auth.js mails the last `email` field of a sign-in form; a limit that counted the first let
 * `email=junk-N@…&email=victim@…` reach the victim without end, and a JSON body was counted under one
 * shared empty key. Against a server of this file's own (test/fixtures/doors.ts: 5 sign-in mails an hour per
 * recipient).
 */
doorsServerForFile("sign-in-doubled-field");

async function post(body: string, contentType: string) {
  const from = freshAddress();
  const csrf = await fetch(`${server.url}/api/auth/csrf`, { headers: { "x-forwarded-for": from } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return fetch(`${server.url}/api/auth/signin/nodemailer`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": contentType, cookie, "x-forwarded-for": from },
    body: body.replace("CSRF", encodeURIComponent(csrfToken)),
  });
}

const mailsTo = async (address: string) =>
  (await readFile(outboxPath, "utf8").catch(() => ""))
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { to: string })
    .filter((m) => m.to.toLowerCase() === address).length;

describe("a sign-in body naming the recipient twice", () => {
  it("ten posts with a doubled email field reach the victim at most five times (here: none, each is a 400)", async () => {
    const victim = await createTestAdmin(`doubled-${crypto.randomUUID()}@example.com`);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const junk = encodeURIComponent(`junk-${i}-${crypto.randomUUID()}@example.com`);
      const res = await post(
        `email=${junk}&email=${encodeURIComponent(victim.email)}&csrfToken=CSRF&callbackUrl=%2Fprojects`,
        "application/x-www-form-urlencoded",
      );
      statuses.push(res.status);
      if (res.status === 400) expect(res.headers.get("content-type")).toContain("application/problem+json");
    }
    expect(await mailsTo(victim.email)).toBeLessThanOrEqual(5);
    expect(statuses).toEqual(Array(10).fill(400));
  });

  it("refuses a JSON body with 400 and sends nothing; a plain form still sends the mail", async () => {
    const admin = await createTestAdmin(`json-${crypto.randomUUID()}@example.com`);
    const json = await post(JSON.stringify({ email: admin.email, csrfToken: "CSRF" }), "application/json");
    expect(json.status).toBe(400);
    expect(await mailsTo(admin.email)).toBe(0);
    const form = await post(
      `email=${encodeURIComponent(admin.email)}&csrfToken=CSRF&callbackUrl=%2Fprojects`,
      "application/x-www-form-urlencoded",
    );
    expect(form.status).toBe(302);
    expect(await mailsTo(admin.email)).toBe(1);
  });
});
