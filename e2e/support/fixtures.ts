import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test as base, expect, type Page } from "@playwright/test";
import postgres from "postgres";
import { linksIn, Mailbox } from "./mailbox";

/** The e2e database (written by scripts/test/serve-e2e.ts). */
export function databaseUrl(): string {
  return readFileSync(".next/e2e-database-url", "utf8").trim();
}

/** Seeds through the operator CLI, as a real deployment creates its first admin. */
export function cliCreateProject(
  org: string,
  name: string,
  owner: string,
): { orgId: string; projectId: string; apiKey: string } {
  const out = execFileSync(
    "node",
    ["--import", "tsx", "scripts/cli.ts", "create-project", "--org", org, "--name", name, "--owner", owner, "--json"],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl() },
      encoding: "utf8",
    },
  );
  return JSON.parse(out.trim().split("\n").pop()!);
}

type WorkerFixtures = { mailbox: Mailbox; sql: postgres.Sql };
type TestFixtures = { signIn: (page: Page, email: string) => Promise<void> };

export const test = base.extend<TestFixtures, WorkerFixtures>({
  mailbox: [
    // The mail global-setup.ts's capture received, read from its directory.
    async ({}, use) => {
      await use(new Mailbox());
    },
    { scope: "worker" },
  ],
  sql: [
    async ({}, use) => {
      const sql = postgres(databaseUrl(), { max: 2, onnotice: () => {} });
      await use(sql);
      await sql.end();
    },
    { scope: "worker" },
  ],
  signIn: async ({ mailbox }, use) => {
    await use(async (page, email) => {
      const since = Date.now();
      await page.goto("/signin");
      await page.getByLabel("Work e-mail").fill(email);
      await page.getByRole("button", { name: "Email me a sign-in link" }).click();
      await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
      const mail = await mailbox.waitFor(email, { subject: /Sign in/, since });
      await page.goto(linksIn(mail)[0]!);
      await page.getByRole("button", { name: `Sign in as ${email}` }).click();
      await page.waitForURL(/\/projects/);
    });
  },
});

export { expect };
