import { cliCreateProject, expect as baseExpect, test } from "./support/fixtures";
import { runId, sessionPages, shot } from "./support/console";

const expect = baseExpect.configure({ timeout: 20_000 });

/*
 * A broadcast A/B test's report in the console: two variants sent to a list of four (the whole list in
 * the test), one variant's mail opened; the report shows the variants side by side. Screenshots at
 * desktop and mobile width.
 */
const run = runId();
const OWNER = `ab-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
const s = sessionPages();
const emails = [0, 1, 2, 3].map((i) => `r${i}-${run}@lovelace.test`);
const userIds: string[] = [];

test.beforeAll(async ({ baseURL }) => {
  seeded = cliCreateProject(`Acme ${run}`, "Shop", OWNER);
  for (const [i, email] of emails.entries()) {
    const res = await fetch(`${baseURL}/api/client/projects/${seeded.projectId}/users`, {
      method: "POST",
      headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ identifier: [{ external_id: `r${i}` }], email }),
    });
    userIds.push((await res.json()).id);
  }
});
test.afterEach(() => s.closeAll());

test("reports: a broadcast's variants side by side", async ({ browser, baseURL, signIn, mailbox }) => {
  const page = await s.pageAs(browser, OWNER, signIn);
  const admin = async (path: string, data: unknown) => {
    const r = await page.request.post(`/api/admin/projects/${seeded.projectId}${path}`, { data });
    expect(r.status(), `${path}: ${await r.text()}`).toBeLessThan(300);
    return r.json();
  };
  const group = await admin("/subscription-groups", { name: "News", channel: "email" });
  const list = await admin("/lists", { name: "Readers", kind: "static" });
  await admin(`/lists/${list.id}/users`, { user_ids: userIds });
  const variant = (name: string) =>
    admin("/templates", {
      name,
      channel: "email",
      subscription_group: group.id,
      subject: name,
      html: `<html><body><p>${name}</p></body></html>`,
    });
  const a = await variant("Sale: plain");
  const b = await variant("Sale: bold");
  await admin("/broadcasts", {
    name: "Winter sale A/B",
    list_id: list.id,
    variants: [{ template_id: a.id }, { template_id: b.id }],
    test: { fraction: 1, metric: "open", decide_after: "4 hours" },
  });
  const mails = await Promise.all(emails.map((e) => mailbox.waitFor(e)));
  await page.waitForTimeout(2_100);
  const bold = mails.find((m) => String(m.subject) === "Sale: bold") ?? mails[0]!;
  const pixel = /<img src="([^"]+\/o\/[^"]+)"/.exec(String(bold.html || ""))![1]!;
  await fetch(new URL(new URL(pixel).pathname, baseURL), {
    headers: { "user-agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15" },
  });

  await page.goto(`/projects/${seeded.projectId}/broadcasts`);
  await page.getByRole("link", { name: "Report of Winter sale A/B" }).click();
  const table = page.getByRole("region", { name: "A/B test" });
  await expect(table.getByText("Sale: plain")).toBeVisible();
  await expect(table.getByText("Sale: bold")).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("link", { name: "Opened: 1 messages" })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await shot(page, "broadcast-ab-report");
  await page.setViewportSize({ width: 375, height: 900 });
  await page.reload();
  await expect(table.getByText("Sale: bold")).toBeVisible();
  await shot(page, "broadcast-ab-report-mobile");
});
