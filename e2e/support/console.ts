import type { Browser, BrowserContext, Page } from "@playwright/test";

/*
 * Helpers shared by the console specs. Every spec file creates its own org, project and admins with names
 * unique to the run (`runId()`), so a retry (a new worker, the module evaluated again) starts clean on the
 * same database instead of colliding with what the failed attempt created.
 */

/** A suffix unique to this evaluation of the spec file. */
export const runId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Our error banners (Next's route announcer also has role=alert). */
export const alertOf = (page: Page) => page.locator('[role="alert"]:not(#__next-route-announcer__)');

/** A full-page screenshot into test-results/ (looked at by eye; see e2e/README.md). */
export const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/console-${name}.png`, fullPage: true });

/**
 * Signed-in pages per address: the first page signs in through the real mail link, later ones reuse its
 * storage state. `closeAll()` (after each test) closes the contexts the test opened.
 */
export function sessionPages() {
  const sessions = new Map<string, Awaited<ReturnType<BrowserContext["storageState"]>>>();
  const contexts: BrowserContext[] = [];
  return {
    async pageAs(browser: Browser, email: string, signIn: (p: Page, e: string) => Promise<void>): Promise<Page> {
      const context = await browser.newContext({ storageState: sessions.get(email) });
      contexts.push(context);
      const page = await context.newPage();
      if (!sessions.has(email)) {
        await signIn(page, email);
        sessions.set(email, await context.storageState());
      }
      return page;
    },
    remember: async (email: string, page: Page) => sessions.set(email, await page.context().storageState()),
    closeAll: () => Promise.all(contexts.splice(0).map((c) => c.close())),
  };
}
