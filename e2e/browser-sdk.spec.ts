import { createServer, type Server } from "node:http";
import { buildSync } from "esbuild";
import { cliCreateProject, expect, test } from "./support/fixtures";

/*
 * The browser SDK in real Chromium, cross-origin: a shop page served from another port than Relay sends
 * identify and track with a browser key made in the console (allowed origin = the shop's). The event must
 * land in the database. The same page from an origin the key does not list is refused by the browser
 * (no Access-Control-Allow-Origin) and stores nothing.
 */
const run = Date.now().toString(36);
const shopPort = Number(process.env.E2E_PORT ?? 3100) + 1;
const SHOP = `http://127.0.0.1:${shopPort}`;
/** The same page served on the next port: another origin, not on the key's list. */
const ELSEWHERE = `http://127.0.0.1:${shopPort + 1}`;

const sdk = buildSync({
  entryPoints: ["sdk/src/browser.ts"],
  bundle: true,
  format: "esm",
  write: false,
  target: "es2022",
}).outputFiles[0]!.text;

const page = `<!doctype html><meta charset="utf-8"><title>Shop</title><p id="status">loading</p>
<script type="module">
  import { RelayBrowser } from "/relay-browser.js";
  const q = new URLSearchParams(location.search);
  const status = document.getElementById("status");
  const relay = new RelayBrowser({ apiKey: q.get("key"), baseUrl: q.get("relay"), maxRetries: 0 });
  window.relayAnonymousId = relay.anonymousId;
  try {
    await relay.identify(q.get("user"), { email: q.get("user") + "@shop.test", data: { plan: "trial" } });
    const tracked = relay.track("added_to_cart", { sku: "SKU-" + q.get("user") });
    await relay.flush();
    await tracked;
    status.textContent = "sent";
  } catch (e) {
    status.textContent = "failed: " + e.name;
  }
</script>`;

const servers: Server[] = [];
test.beforeAll(async () => {
  for (const port of [shopPort, shopPort + 1]) {
    const server = createServer((req, res) => {
      if (req.url?.startsWith("/relay-browser.js"))
        return void res.writeHead(200, { "content-type": "text/javascript" }).end(sdk);
      if (req.url?.startsWith("/?")) return void res.writeHead(200, { "content-type": "text/html" }).end(page);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    servers.push(server);
  }
});
test.afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

test("a page on an allowed origin sends identify and track with the browser SDK; another origin is refused", async ({
  page: console_,
  browser,
  signIn,
  sql,
  baseURL,
}) => {
  test.setTimeout(120_000); // sign-in, key, two pages and the worker's drain on a loaded machine
  const owner = `shop-owner-${run}@shop.test`;
  const { projectId } = cliCreateProject(`Shop ${run}`, "Storefront", owner);

  // The owner makes the browser key in the console, listing the shop's origin.
  await signIn(console_, owner);
  await console_.goto(`/projects/${projectId}/keys`);
  // The CLI made the project's first (server) key; its row shows once the page has loaded.
  await expect(console_.getByRole("row", { name: /client/ }).first()).toBeVisible({ timeout: 15_000 });
  await console_.getByRole("button", { name: "Create API key" }).first().click();
  await console_.getByLabel("Name").fill("Storefront");
  await console_.getByRole("dialog").getByRole("combobox").selectOption("client");
  await console_.getByLabel("Allowed browser origins").fill(SHOP);
  await console_.getByRole("button", { name: "Create key" }).click();
  const key = await console_.getByLabel("New API key secret").inputValue();
  await console_.getByRole("button", { name: "Done" }).click();
  await expect(console_.getByRole("row", { name: /Storefront/ })).toContainText(SHOP);

  const shopper = await browser.newPage();
  await shopper.goto(`${SHOP}/?${new URLSearchParams({ key, relay: baseURL!, user: "shopper-1" })}`);
  await expect(shopper.locator("#status")).toHaveText("sent", { timeout: 20_000 });
  const anonymousId = await shopper.evaluate(
    () => (window as unknown as { relayAnonymousId: string }).relayAnonymousId,
  );
  expect(await shopper.evaluate(() => localStorage.getItem("relay:anonymous_id"))).toBe(anonymousId);
  await shopper.screenshot({ path: "test-results/browser-sdk-sent.png" });

  // The event is stored (the worker drains it) against the user that holds both identifiers.
  await expect
    .poll(
      async () =>
        (await sql`select data from events where project_id = ${projectId} and name = 'added_to_cart'`).map(
          (r) => r.data,
        ),
      { timeout: 30_000 },
    )
    .toEqual([{ sku: "SKU-shopper-1" }]);
  const ids =
    await sql`select source, external_id from user_identifiers where project_id = ${projectId} order by source`;
  expect(ids.map((r) => `${r.source}:${r.external_id}`)).toEqual([`anonymous:${anonymousId}`, "default:shopper-1"]);
  const [stored] =
    await sql`select u.email from users u join user_identifiers i on i.user_id = u.id where i.project_id = ${projectId} and i.external_id = 'shopper-1'`;
  expect(stored!.email).toBe("shopper-1@shop.test");

  // The same page on an origin the key does not list: the browser gets no CORS grant, nothing is stored.
  const stranger = await browser.newPage();
  await stranger.goto(`${ELSEWHERE}/?${new URLSearchParams({ key, relay: baseURL!, user: "shopper-2" })}`);
  await expect(stranger.locator("#status")).toHaveText(/^failed/, { timeout: 20_000 });
  const [{ n }] =
    await sql`select count(*)::int as n from user_identifiers where project_id = ${projectId} and external_id = 'shopper-2'`;
  expect(n).toBe(0);
});
