import { cliCreateProject, expect as baseExpect, test } from "./support/fixtures";
import { runId, sessionPages, shot } from "./support/console";

const expect = baseExpect.configure({ timeout: 20_000 });

/*
 * A broadcast's report in the console: sent through the deployment's SMTP (the capture server), opened
 * once through its pixel, its goal met by an event; the funnel shows the counts and rates, and a count
 * opens the messages behind it. Screenshots at desktop and mobile width.
 */
const run = runId();
const OWNER = `rep-${run}@acme.test`;
const ADA = `ada-${run}@lovelace.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
let userId: string;
const s = sessionPages();

test.beforeAll(async ({ baseURL }) => {
  seeded = cliCreateProject(`Acme ${run}`, "Shop", OWNER);
  const res = await fetch(`${baseURL}/api/client/projects/${seeded.projectId}/users`, {
    method: "POST",
    headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ identifier: [{ external_id: "ada" }], email: ADA }),
  });
  userId = (await res.json()).id;
});
test.afterEach(() => s.closeAll());

test("reports: a broadcast's funnel from its send, an open and a conversion; a count opens its messages", async ({
  browser,
  baseURL,
  signIn,
  mailbox,
}) => {
  const page = await s.pageAs(browser, OWNER, signIn);
  const admin = async (path: string, data: unknown) => {
    const r = await page.request.post(`/api/admin/projects/${seeded.projectId}${path}`, { data });
    expect(r.status(), `${path}: ${await r.text()}`).toBeLessThan(300);
    return r.json();
  };
  const group = await admin("/subscription-groups", { name: "News", channel: "email" });
  const list = await admin("/lists", { name: "Readers", kind: "static" });
  await admin(`/lists/${list.id}/users`, { user_ids: [userId] });
  const template = await admin("/templates", {
    name: "Sale",
    channel: "email",
    subscription_group: group.id,
    subject: "Sale",
    html: "<html><body><p>Sale</p></body></html>",
  });
  const b = await admin("/broadcasts", {
    name: "Winter sale",
    template_id: template.id,
    list_id: list.id,
    goal: { event: "Purchased", within: "1 day", value_path: "data.total" },
  });
  const mail = await mailbox.waitFor(ADA);
  const pixel = /<img src="([^"]+\/o\/[^"]+)"/.exec(String(mail.html || ""))?.[1];
  expect(pixel, "the mail's open pixel").toBeTruthy();
  // Opened by a person, more than two seconds after the send (sooner counts as a machine).
  await page.waitForTimeout(2_100);
  const opened = await fetch(new URL(new URL(pixel!).pathname, baseURL), {
    headers: { "user-agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15" },
  });
  expect(opened.status).toBe(200);
  const ev = await fetch(`${baseURL}/api/client/projects/${seeded.projectId}/users/events`, {
    method: "POST",
    headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify([{ name: "Purchased", identifier: [{ external_id: "ada" }], data: { total: 42 } }]),
  });
  expect(ev.status).toBe(202);

  await page.goto(`/projects/${seeded.projectId}/broadcasts`);
  await page.getByRole("link", { name: "Report of Winter sale" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Report: Winter sale" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sent: 1 messages" })).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("link", { name: "Converted: 1 messages" })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole("link", { name: "Opened: 1 messages" })).toBeVisible();
  await expect(page.getByText("42", { exact: true })).toBeVisible();
  await shot(page, "broadcast-report");
  await page.setViewportSize({ width: 375, height: 900 });
  await shot(page, "broadcast-report-mobile");
  await page.setViewportSize({ width: 1280, height: 900 });

  // A count opens the messages behind it.
  await page.getByRole("link", { name: "Opened: 1 messages" }).click();
  await expect(page).toHaveURL(new RegExp(`broadcast_id=${b.id}&event=opened`));
  await expect(page.getByLabel("What it did")).toHaveValue("opened");
  await expect(page.getByText(ADA).first()).toBeVisible();
  await shot(page, "messages-opened");
});
