import { cliCreateProject, expect as baseExpect, test } from "./support/fixtures";
import { alertOf, runId, sessionPages, shot } from "./support/console";

const expect = baseExpect.configure({ timeout: 15_000 });

/*
 * Messaging in the console: a provider added (its password masked) and removed again, a template (a
 * Liquid syntax error named by line, then saved, previewed), a broadcast to a static list sent through
 * the deployment's SMTP (the capture server), its progress to done, the message in the log and on the
 * user's profile. Screenshots of every new page.
 */
const run = runId();
const OWNER = `msg-${run}@acme.test`;
const ADA = `ada-${run}@lovelace.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
let userId: string;
const s = sessionPages();

test.beforeAll(async ({ baseURL }) => {
  seeded = cliCreateProject(`Acme ${run}`, "Shop", OWNER);
  const res = await fetch(`${baseURL}/api/client/projects/${seeded.projectId}/users`, {
    method: "POST",
    headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ identifier: [{ external_id: "ada" }], email: ADA, data: { first_name: "Ada" } }),
  });
  userId = (await res.json()).id;
});
test.afterEach(() => s.closeAll());

test("messages: provider masked, template compiled and previewed, a broadcast sent to a list, the message logged", async ({
  browser,
  signIn,
  mailbox,
}) => {
  const page = await s.pageAs(browser, OWNER, signIn);
  const p = (x: string) => `/projects/${seeded.projectId}${x}`;
  const admin = async (path: string, data: unknown) => {
    const r = await page.request.post(`/api/admin/projects/${seeded.projectId}${path}`, { data });
    expect(r.status(), `${path}: ${await r.text()}`).toBeLessThan(300);
    return r.json();
  };
  await admin("/subscription-groups", { name: "Product news", channel: "email" });
  const list = await admin("/lists", { name: "Launch list", kind: "static" });
  await admin(`/lists/${list.id}/users`, { user_ids: [userId] });

  // Providers: the SMTP URL's password never comes back. Removed again: the mail below goes through the
  // deployment's SMTP_URL, the capture server.
  await page.goto(p("/providers"));
  await expect(page.getByText("No providers")).toBeVisible();
  await page.getByRole("button", { name: "Add provider" }).first().click();
  await page.getByLabel("Name", { exact: true }).fill("Postmark");
  await page.getByLabel("SMTP URL").fill(`smtp://relay:hunter2-${run}@127.0.0.1:2525`);
  await page.getByLabel("From", { exact: true }).fill("Acme <hello@acme.test>");
  await page.getByRole("dialog").getByRole("button", { name: "Add provider" }).click();
  await expect(page.getByRole("cell", { name: "Postmark", exact: true })).toBeVisible();
  await expect(page.getByText("smtp://relay:****@127.0.0.1:2525")).toBeVisible();
  await expect(page.getByText(`hunter2-${run}`)).toHaveCount(0);
  await shot(page, "providers");
  await page.getByRole("button", { name: "Remove Postmark" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText("No providers")).toBeVisible();

  // Templates: a syntax error is refused with its line and column; the fixed template saves.
  await page.goto(p("/templates"));
  await expect(page.getByText("No templates yet")).toBeVisible();
  await page.getByRole("link", { name: "New template" }).first().click();
  await page.getByLabel("Name", { exact: true }).fill("Launch");
  await page.getByLabel("Subscription group").selectOption({ label: "Product news" });
  await page.getByLabel("Subject", { exact: true }).fill("Hello {{ user.data.first_name }}");
  await page.getByLabel("Text", { exact: true }).fill("Hi {{ user.data.first_name }},\nwe launched.\n{% if %}");
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(alertOf(page)).toContainText(/line 3, column/);
  await expect(page.getByText(/at line 3, column/).first()).toBeVisible();
  await shot(page, "template-error");
  await page
    .getByLabel("Text", { exact: true })
    .fill("Hi {{ user.data.first_name }},\nwe launched.\n{{ unsubscribe_url }}");
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Launch" })).toBeVisible();

  // Preview against Ada.
  await page.getByLabel("Preview as user").fill(ADA);
  await page.getByRole("button", { name: "Find" }).click();
  await page.getByRole("button", { name: "Preview", exact: true }).click();
  await expect(page.getByTestId("rendered-subject")).toHaveText("Hello Ada");
  await shot(page, "template-editor");

  // A broadcast to the list: progress reaches done, the mail arrives once.
  const since = Date.now();
  await page.goto(p("/broadcasts"));
  await expect(page.getByText("No broadcasts yet")).toBeVisible();
  await page.getByRole("button", { name: "New broadcast" }).first().click();
  await page.getByLabel("Name", { exact: true }).fill("Launch day");
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "Launch (e-mail)" });
  await page.getByLabel("List", { exact: true }).selectOption({ label: "Launch list" });
  await page.getByRole("dialog").getByRole("button", { name: "Send now" }).click();
  const row = page.getByRole("row", { name: /Launch day/ });
  await expect(row.getByText("done", { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(row.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "1 of 1 finished");
  const mail = await mailbox.waitFor(ADA, { subject: /Hello Ada/, since });
  expect(mail.text).toContain("we launched");
  // Once: the row says its one message is final, so every copy the sender made has been accepted by now.
  const copies = mailbox.mails.filter(
    (m) => m.receivedAt >= since && m.envelopeTo.includes(ADA.toLowerCase()) && /Hello Ada/.test(m.subject),
  );
  expect(copies).toHaveLength(1);
  await shot(page, "broadcasts");

  // The log: filtered to the broadcast, the message's rendered content.
  await row.getByRole("link", { name: "Messages of Launch day" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
  await page.getByRole("button", { name: `Details of the message to ${ADA}` }).click();
  const detail = page.getByRole("region", { name: /^Message / });
  await expect(detail.getByTestId("rendered-subject")).toHaveText("Hello Ada");
  await expect(detail.getByText("sent", { exact: true })).toBeVisible();
  await shot(page, "messages");

  // The user's profile lists it.
  await page.goto(p(`/users/${userId}`));
  await expect(page.getByRole("list", { name: "Messages to this user" })).toContainText("Hello Ada");
  await shot(page, "user-messages");
});
