import type { Page } from "@playwright/test";
import { cliCreateProject, expect as baseExpect, test } from "./support/fixtures";
import { runId, sessionPages, shot } from "./support/console";

const expect = baseExpect.configure({ timeout: 20_000 });

/*
 * Reports in the console, in order on one project: a broadcast's report (sent through the deployment's
 * SMTP, the capture server; opened once through its pixel and its link followed once; its goal met by
 * an event), the template's performance, a journey's canvas with its steps' counts and its send step's
 * funnel, and the overview's messages per hour. Each count opens the messages behind it. Screenshots at
 * desktop and mobile width.
 */
const run = runId();
const OWNER = `rep-${run}@acme.test`;
const ADA = `ada-${run}@lovelace.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
let userId: string;
let templateId: string;
const s = sessionPages();

/** One client event of Ada's, through the client API. */
async function adaDid(baseURL: string | undefined, name: string, data: Record<string, unknown>) {
  const ev = await fetch(`${baseURL}/api/client/projects/${seeded.projectId}/users/events`, {
    method: "POST",
    headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify([{ name, identifier: [{ external_id: "ada" }], data }]),
  });
  expect(ev.status).toBe(202);
}

/** A full-page screenshot at 1280 px and at 375 px wide, back at 1280 after. */
async function shots(page: Page, name: string) {
  await shot(page, name);
  await page.setViewportSize({ width: 375, height: 900 });
  await shot(page, `${name}-mobile`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

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
    html: '<html><body><p>Sale</p><a href="https://example.com/sale">Shop the sale</a></body></html>',
  });
  templateId = template.id;
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
  // The mail's tracked link, followed once by the person.
  const tracked = /href="([^"]+\/l\/[^"]+)"/.exec(String(mail.html || ""))?.[1];
  expect(tracked, "the mail's tracked link").toBeTruthy();
  const clicked = await fetch(new URL(new URL(tracked!).pathname, baseURL), { redirect: "manual" });
  expect(clicked.status).toBe(302);
  await adaDid(baseURL, "Purchased", { total: 42 });

  await page.goto(`/projects/${seeded.projectId}/broadcasts`);
  await page.getByRole("link", { name: "Report of Winter sale" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Report: Winter sale" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sent: 1 messages" })).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("link", { name: "Converted: 1 messages" })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole("link", { name: "Opened: 1 messages" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Clicked: 1 messages" })).toBeVisible();
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

test("reports: a template's performance, from the list and the editor, over a period; a count opens its messages", async ({
  browser,
  signIn,
}) => {
  const page = await s.pageAs(browser, OWNER, signIn);
  await page.goto(`/projects/${seeded.projectId}/templates`);
  await page.getByRole("link", { name: "Performance of Sale" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Performance: Sale" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/templates/${templateId}/report$`));
  await expect(page.getByLabel("Period")).toHaveValue("30");
  await expect(page.getByRole("link", { name: "Sent: 1 messages" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Opened: 1 messages" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Clicked: 1 messages" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Converted: 1 messages" })).toBeVisible();
  // The time series: one hour with the send, the open, the click and the conversion.
  await expect(
    page.getByRole("region", { name: "Over time" }).locator(".recharts-bar-rectangle").first(),
  ).toBeVisible();
  await shots(page, "template-report");

  // The period is in the address; the last 24 hours hold the same send.
  await page.getByLabel("Period").selectOption({ label: "Last 24 hours" });
  await expect(page).toHaveURL(/\?days=1$/);
  await expect(page.getByRole("link", { name: "Sent: 1 messages" })).toBeVisible();

  // From the editor, the same page; a count opens the template's messages that did it.
  await page.goto(`/projects/${seeded.projectId}/templates/${templateId}`);
  await page.getByRole("link", { name: "Performance", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Performance: Sale" })).toBeVisible();
  await page.getByRole("link", { name: "Clicked: 1 messages" }).click();
  await expect(page).toHaveURL(new RegExp(`template_id=${templateId}&event=clicked`));
  await expect(page.getByLabel("What it did")).toHaveValue("clicked");
  await expect(page.getByText(ADA).first()).toBeVisible();
});

test("reports: a journey's canvas shows each step's entered, waiting and left, the send step's funnel and the split's paths", async ({
  browser,
  baseURL,
  signIn,
  mailbox,
}) => {
  const page = await s.pageAs(browser, OWNER, signIn);
  const api = `/api/admin/projects/${seeded.projectId}`;
  const created = await page.request.post(`${api}/journeys`, {
    data: {
      name: "Welcome series",
      entrances: [{ kind: "event", event_name: "Joined" }],
      steps: [
        { key: "welcome", kind: "send", template_id: templateId },
        {
          key: "split",
          kind: "split",
          paths: [
            { weight: 50, next: "end-a" },
            { weight: 50, next: "end-b" },
          ],
        },
        { key: "end-a", kind: "exit" },
        { key: "end-b", kind: "exit" },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const journeyId = (await created.json()).id as string;
  const since = Date.now();
  await adaDid(baseURL, "Joined", {});
  await mailbox.waitFor(ADA, { since, timeoutMs: 60_000 });

  await page.goto(`/projects/${seeded.projectId}/journeys/${journeyId}`);
  const welcome = page.getByTestId("step-welcome");
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("step-split")).toContainText("1 left", { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(welcome).toContainText("1 entered · 0 waiting · 1 left");
  await expect(welcome.getByTestId("step-funnel")).toContainText("1 sent");
  // Each path with the entries of the exit it leads to: one took path 1 or 2, not both.
  const paths = page.getByRole("list", { name: "Paths of split" }).getByRole("listitem");
  await expect(paths).toHaveCount(2);
  await expect(paths.filter({ hasText: "1 entered" })).toHaveCount(1);
  await expect(paths.filter({ hasText: "0 entered" })).toHaveCount(1);
  // No A/B test on this split, so no verdict.
  await expect(page.getByTestId("step-split")).not.toContainText("Winner");
  await expect(page.getByRole("region", { name: "What the journey's messages did" })).toBeVisible();
  await shots(page, "journey-report");

  // The send step selected: its own funnel, whose counts open its messages.
  await welcome.click();
  const panel = page.getByRole("region", { name: "What welcome's messages did" });
  await expect(panel.getByRole("link", { name: "Sent: 1 messages" })).toBeVisible();
  await shot(page, "journey-report-step");
  await panel.getByRole("link", { name: "Sent: 1 messages" }).click();
  await expect(page).toHaveURL(new RegExp(`journey_id=${journeyId}&step=welcome&state=sent`));
  await expect(page.getByText(ADA).first()).toBeVisible();

  // The editor's canvas shows the same numbers on its boxes.
  await page.goto(`/projects/${seeded.projectId}/journeys/${journeyId}`);
  await page.getByRole("button", { name: "Edit steps" }).click();
  await expect(page.getByTestId("canvas-step-welcome")).toContainText("1 entered · 0 waiting · 1 left");
  await expect(page.getByTestId("canvas-step-welcome").getByTestId("step-funnel")).toContainText("1 sent");
  await shots(page, "journey-canvas-report");

  // A split step the report gives a verdict for shows it as a badge (the report's A/B fields, added to
  // the real answer here until the server writes them).
  await page.route(`**${api}/journeys/${journeyId}/report`, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    const paths = [
      { index: 0, rate: 0.1, interval: [0.05, 0.2], chance_to_beat_others: 0.03 },
      { index: 1, rate: 0.3, interval: [0.2, 0.4], chance_to_beat_others: 0.97 },
    ];
    for (const step of body.steps)
      if (step.key === "split") step.test = { metric: "click", state: "winner", winner: 1, paths };
    await route.fulfill({ response: res, json: body });
  });
  await page.goto(`/projects/${seeded.projectId}/journeys/${journeyId}`);
  await expect(page.getByTestId("step-split")).toContainText("Winner: path 2");
  await expect(page.getByTestId("step-split")).toContainText("30 % (20 %–40 %) · best 97 %");
  await shot(page, "journey-report-verdict");
  await page.unroute(`**${api}/journeys/${journeyId}/report`);
});

test("reports: the overview shows messages sent, delivered, bounced, opened and clicked per hour", async ({
  browser,
  signIn,
}) => {
  const page = await s.pageAs(browser, OWNER, signIn);
  await page.goto(`/projects/${seeded.projectId}`);
  const totals = page.getByRole("list", { name: "Messages in the last 48 hours" });
  // The broadcast's and the journey's messages; the broadcast's open and click.
  await expect(totals.getByRole("link", { name: "Sent, 48 h: 2" })).toBeVisible();
  await expect(totals.getByRole("link", { name: "Opened, 48 h: 1" })).toBeVisible();
  await expect(totals.getByRole("link", { name: "Clicked, 48 h: 1" })).toBeVisible();
  await expect(totals.getByRole("link", { name: "Bounced, 48 h: 0" })).toBeVisible();
  await expect(
    page
      .getByRole("figure", { name: /Messages sent, delivered/ })
      .locator(".recharts-line")
      .first(),
  ).toBeVisible();
  await shots(page, "overview-messages");
  await totals.getByRole("link", { name: "Opened, 48 h: 1" }).click();
  await expect(page).toHaveURL(/\/messages\?event=opened$/);
  await expect(page.getByText(ADA).first()).toBeVisible();
});
