import { cliCreateProject, expect, test } from "./support/fixtures";

test("console: upload a CSV of users and watch it applied, with its row errors", async ({ page, signIn, sql }) => {
  const owner = `imports-owner-${Date.now()}@example.com`;
  const { projectId } = cliCreateProject(`Imports ${Date.now()}`, "Imports project", owner);
  await signIn(page, owner);
  await page.goto(`/projects/${projectId}`);
  await page.getByRole("link", { name: "Imports" }).click();
  await expect(page.getByRole("heading", { name: "Imports", level: 1 })).toBeVisible();
  await expect(page.getByText("No imports yet")).toBeVisible();
  await page.screenshot({ path: "test-results/console-imports-empty.png", fullPage: true });

  const rows = ["external_id,email,data.plan,data.seats"];
  for (let i = 1; i <= 3000; i++)
    rows.push(
      i === 42 ? `e2e-${i},not-an-email,pro,1` : `e2e-${i},u${i}@example.com,${i % 2 ? "pro" : "free"},${i % 10}`,
    );
  await page.getByLabel("Each row is").selectOption("users");
  await page
    .getByLabel("File")
    .setInputFiles({ name: "team.csv", mimeType: "text/csv", buffer: Buffer.from(rows.join("\n")) });
  await page.getByRole("button", { name: "Upload and import" }).click();

  // The page polls while the worker applies the file, and settles on done.
  await expect(page.getByRole("row", { name: /team\.csv/ })).toContainText("done", { timeout: 60_000 });
  await expect(page.getByTestId("import-processed")).toHaveText("2,999");
  await expect(page.getByTestId("import-failed")).toHaveText("1");
  await expect(page.getByText("line 43")).toBeVisible();
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  await page.screenshot({ path: "test-results/console-imports-done.png", fullPage: true });
  const [{ n }] =
    await sql`select count(*)::int as n from user_identifiers where project_id = ${projectId} and external_id like 'e2e-%'`;
  expect(n).toBe(2999);

  // A file that is not CSV/NDJSON is refused with the server's reason, and nothing is queued.
  await page
    .getByLabel("File")
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]) });
  await page.getByRole("button", { name: "Upload and import" }).click();
  await expect(page.locator('[role="alert"]:not(#__next-route-announcer__)')).toContainText("text/csv");
  await page.screenshot({ path: "test-results/console-imports-refused.png", fullPage: true });
  await expect(page.getByRole("row")).toHaveCount(2);
});
