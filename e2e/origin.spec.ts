import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { linksIn, type Mailbox } from "./support/mailbox";
import { cliCreateProject, databaseUrl, expect, test } from "./support/fixtures";
import { seedSubscriptions } from "./subscriptions-seed";

/*
 * Issue 17: the production server with AUTH_URL=http://127.0.0.1:<port> (playwright.config.ts), every
 * request sent to 127.0.0.1, while Next spells its own URLs `localhost`. Mailed links, every redirect on
 * the way and the page a person ends on must all be on AUTH_URL's origin, or the session cookie set for
 * one host is missing on the next.
 */
const run = Date.now().toString(36);

/** Every URL the page requests and every Location it is sent to, to check none leaves the origin. */
function recordHops(page: Page): string[] {
  const hops: string[] = [];
  page.on("request", (r) => hops.push(r.url()));
  page.on("response", (r) => {
    const location = r.headers().location;
    if (location) hops.push(new URL(location, r.url()).href);
  });
  return hops;
}

const offOrigin = (hops: string[], origin: string) =>
  hops.filter((u) => !u.startsWith("data:") && new URL(u).origin !== origin);

async function signInByMail(page: Page, mailbox: Mailbox, email: string, origin: string) {
  const since = Date.now();
  await page.getByLabel("Work e-mail").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  const mail = await mailbox.waitFor(email, { subject: /Sign in/, since });
  const [link] = linksIn(mail);
  expect(new URL(link!).origin).toBe(origin);
  await page.goto(link!);
  await page.getByRole("button", { name: `Sign in as ${email}` }).click();
  await page.waitForURL(`${origin}/projects`);
}

test("sign-in by the mailed link stays on AUTH_URL's origin and ends signed in on /projects", async ({
  page,
  mailbox,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  expect(new URL(origin).hostname).toBe("127.0.0.1");
  const owner = `origin-owner-${run}@acme.test`;
  cliCreateProject("Origin Co", "Origin", owner);
  const hops = recordHops(page);
  await page.goto("/signin");
  await signInByMail(page, mailbox, owner, origin);
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  await expect(page.getByText("Origin", { exact: true })).toBeVisible();
  expect(offOrigin(hops, origin)).toEqual([]);
  expect((await page.context().cookies(origin)).some((c) => c.name === "authjs.session-token")).toBe(true);
  await page.screenshot({ path: "test-results/origin-signed-in.png", fullPage: true });
});

test("an invitation mail links to AUTH_URL's origin, where the invitee signs in and finds it", async ({
  page,
  mailbox,
  request,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const { projectId } = cliCreateProject("Invite Co", `Invited-${run}`, `invite-owner-${run}@acme.test`);
  const key = adminKey(projectId);
  const invitee = `invitee-${run}@elsewhere.test`;
  const since = Date.now();
  const res = await request.post(`/api/admin/projects/${projectId}/invites`, {
    headers: { authorization: `Bearer ${key}` },
    data: { email: invitee, role: "editor" },
  });
  expect(res.status()).toBe(201);
  const mail = await mailbox.waitFor(invitee, { subject: /invited/, since, timeoutMs: 30_000 });
  const [link] = linksIn(mail);
  expect(new URL(link!).origin).toBe(origin);

  const hops = recordHops(page);
  await page.goto(link!);
  await expect(page.getByRole("heading", { name: "Sign in to your console" })).toBeVisible();
  await signInByMail(page, mailbox, invitee, origin);
  await page.goto("/invites");
  await expect(page.getByText(`Invited-${run}`)).toBeVisible();
  expect(offOrigin(hops, origin)).toEqual([]);
});

test("an unsubscribe link is minted on AUTH_URL's origin and works there", async ({ page, request, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const s = await seedSubscriptions(request, `origin-${run}`);
  const { unsubscribe_url, preferences_url, headers } = await s.links("Product news");
  expect(new URL(unsubscribe_url).origin).toBe(origin);
  expect(new URL(preferences_url).origin).toBe(origin);
  expect(headers["List-Unsubscribe"]).toBe(`<${unsubscribe_url}>`);
  const hops = recordHops(page);
  await page.goto(unsubscribe_url);
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("heading", { name: "You’re unsubscribed from Product news" })).toBeVisible();
  expect(offOrigin(hops, origin)).toEqual([]);
  expect((await s.states())["Product news"]).toMatchObject({ state: "unsubscribed" });
});

/** An admin key for a project made by the CLI (the same command an operator runs). */
function adminKey(projectId: string): string {
  const out = execFileSync(
    "node",
    ["--import", "tsx", "scripts/cli.ts", "create-key", "--project", projectId, "--role", "admin", "--json"],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl() },
      encoding: "utf8",
    },
  );
  return JSON.parse(out.trim().split("\n").pop()!).apiKey;
}
