import { startReceiver } from "../scripts/test/webhook-receiver";
import { cliCreateProject, expect as baseExpect, test } from "./support/fixtures";
import { alertOf, runId, sessionPages, shot } from "./support/console";

const expect = baseExpect.configure({ timeout: 15_000 });

/* Settings → Destinations: create (secret once), health, the delivery log with retry, test, rotate, disable. */
const run = runId();
const OWNER = `dest-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
let rx: Awaited<ReturnType<typeof startReceiver>>;
const s = sessionPages();

test.beforeAll(async () => {
  seeded = cliCreateProject(`Acme ${run}`, "Shop", OWNER);
  rx = await startReceiver();
});
test.afterEach(() => s.closeAll());
test.afterAll(async () => rx?.stop());

test("destinations: create with the secret shown once, deliveries with attempts, retry, test, rotate, disable", async ({
  browser,
  signIn,
  baseURL,
}) => {
  const page = await s.pageAs(browser, OWNER, signIn);
  await page.goto(`/projects/${seeded.projectId}/destinations`);
  await expect(page.getByRole("heading", { name: "Destinations" })).toBeVisible();
  await expect(page.getByText("No destinations")).toBeVisible();
  await shot(page, "destinations-empty");

  // A refused URL: the form says why and nothing is created.
  await page.getByRole("button", { name: "Add destination" }).first().click();
  await page.getByLabel("Name").fill("Metadata");
  await page.getByLabel("URL").fill("https://169.254.169.254/latest");
  await page.getByRole("dialog").getByRole("button", { name: "Add destination" }).click();
  await expect(alertOf(page)).toContainText("link-local");

  await page.getByLabel("Name").fill("Warehouse");
  await page.getByLabel("URL").fill(rx.url("/warehouse"));
  await page.getByLabel("Events").fill("Order Completed, user.*");
  await shot(page, "destinations-create");
  await page.getByRole("dialog").getByRole("button", { name: "Add destination" }).click();
  const secretBox = page.getByRole("textbox", { name: "Signing secret" });
  await expect(secretBox).toHaveValue(/^whsec_/);
  const secret = await secretBox.inputValue();
  rx.setSecrets([secret]);
  await shot(page, "destinations-secret");
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByText(secret)).toHaveCount(0);
  await expect(page.getByRole("cell", { name: /^Warehouse http/ })).toBeVisible();

  // The receiver fails the first attempt of each message: the log shows the 500, then the retry's 200.
  const seen = new Map<string, number>();
  rx.answerWith((r) => {
    const n = (seen.get(r.webhookId) ?? 0) + 1;
    seen.set(r.webhookId, n);
    return n === 1 ? 500 : 200;
  });
  const res = await fetch(`${baseURL}/api/client/projects/${seeded.projectId}/users/events`, {
    method: "POST",
    headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify([{ name: "Order Completed", identifier: [{ external_id: "ada" }], data: { total: 42 } }]),
  });
  expect(res.status).toBe(202);
  await page.getByRole("button", { name: "Delivery log of Warehouse" }).click();
  const log = page.getByRole("region", { name: "Delivery log of Warehouse" });
  await expect(log.getByText("Order Completed")).toBeVisible({ timeout: 30_000 });
  await expect(log.getByText("user.created")).toBeVisible({ timeout: 30_000 });
  await expect(log.getByRole("cell", { name: "delivered", exact: true })).toHaveCount(2, { timeout: 60_000 });
  await expect(log.getByText("500").first()).toBeVisible();
  await page.reload();
  // The refused URL created nothing: after a reload the list holds Warehouse alone.
  await expect(page.getByRole("cell", { name: /^Warehouse http/ })).toBeVisible();
  await expect(page.getByRole("cell", { name: /^Metadata/ })).toHaveCount(0);
  await page.getByRole("button", { name: "Delivery log of Warehouse" }).click();
  await expect(page.getByRole("cell", { name: /50%/ })).toBeVisible();
  await shot(page, "destinations-log");

  // Retry by hand: the same webhook-id arrives once more.
  const before = rx.received.length;
  await log.getByRole("button", { name: /^Retry Order Completed/ }).click();
  await baseExpect.poll(() => rx.received.length, { timeout: 30_000 }).toBeGreaterThan(before);
  const again = rx.received.at(-1)!;
  expect(rx.received.filter((r) => r.webhookId === again.webhookId).length).toBeGreaterThan(1);

  rx.answerWith(() => 200);
  // Test ping, then rotate: the new secret is shown once; both verify during the overlap.
  await page.getByRole("button", { name: "Send a test ping to Warehouse" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Test ping to Warehouse answered 200" })).toBeVisible();
  await page.getByRole("button", { name: "Rotate the secret of Warehouse" }).click();
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByRole("textbox", { name: "Signing secret" })).toHaveValue(/^whsec_/);
  const rotated = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
  expect(rotated).not.toBe(secret);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByText("Rotating: the old secret signs too until")).toBeVisible();
  rx.setSecrets([secret, rotated]);
  await page.getByRole("button", { name: "Send a test ping to Warehouse" }).click();
  await baseExpect.poll(() => rx.received.at(-1)?.verifiedBy.join(","), { timeout: 30_000 }).toBe("0,1");

  await page.getByRole("button", { name: "Disable Warehouse" }).click();
  await expect(page.getByText("Off", { exact: true })).toBeVisible();
  await shot(page, "destinations-list");
  expect(rx.unverified).toEqual([]);
});
