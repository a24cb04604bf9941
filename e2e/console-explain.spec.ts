import { cliCreateProject, expect as baseExpect, test } from "./support/fixtures";
import { runId, sessionPages, shot } from "./support/console";

// Pages take seconds to hydrate on a loaded 2-core machine: assertions wait up to 15 s.
const expect = baseExpect.configure({ timeout: 15_000 });

/* Explanations in the console: a user's "Lists and journeys" with "why?", the timeline, a list's "check a user", an event's trace. */
const run = runId();
const OWNER = `explain-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
const s = sessionPages();

test.beforeAll(() => {
  seeded = cliCreateProject(`Acme ${run}`, "Explain", OWNER);
});
test.afterEach(() => s.closeAll());

test("why? shows the evaluated rule tree, the timeline tells the user's story, and events open their trace", async ({
  browser,
  signIn,
  baseURL,
  sql,
}) => {
  test.setTimeout(240_000);
  const owner = await s.pageAs(browser, OWNER, signIn);
  const admin = async (path: string, data: unknown) => {
    const r = await owner.request.post(`/api/admin/projects/${seeded.projectId}${path}`, { data });
    expect(r.status()).toBe(201);
    return r.json();
  };
  const send = async (path: string, body: unknown) =>
    (
      await fetch(`${baseURL}/api/client/projects/${seeded.projectId}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      })
    ).status;
  const big = await admin("/lists", {
    name: "Big buyers",
    kind: "dynamic",
    rules: {
      all: [
        { event: { name: "order.completed", at_least: 2, where: [{ path: "total", op: "gte", value: 50 }] } },
        { property: { path: "data.plan", op: "eq", value: "pro" } },
      ],
    },
  });
  const buyers = await admin("/lists", {
    name: "Buyers",
    kind: "dynamic",
    rules: { event: { name: "order.completed" } },
  });
  // A dynamic list's first build (the worker's `lists.rebuild` job) evaluates every user it finds: run after
  // ada's orders are recorded and before the pipeline's list step reaches them, it would add her itself
  // ("list re-evaluated") instead of her order. No API tells that a build is over, so the job's state does.
  await expect
    .poll(
      async () =>
        (
          await sql`select count(*)::int as n from pgboss.job where name = 'lists.rebuild' and state = 'completed'
            and data->>'listId' in ${sql([big.id, buyers.id])}`
        )[0]!.n,
      { timeout: 60_000 },
    )
    .toBe(2);
  await admin("/journeys", { name: "Thank you", entrances: [{ kind: "event", event_name: "order.completed" }] });
  expect(
    await send("/users", { identifier: [{ external_id: "ada" }], email: "ada@shop.test", data: { plan: "pro" } }),
  ).toBe(201);
  const user = await (await owner.request.get(`/api/admin/projects/${seeded.projectId}/users?external_id=ada`)).json();
  const userId = user.data[0].id as string;
  expect(
    await send("/users/events", [
      // A minute apart: the first order enters the journey, the later one (the batch's latest) is the
      // cause of the list changes, and the re-entry rule refuses it a second entry.
      {
        name: "order.completed",
        identifier: [{ external_id: "ada" }],
        data: { total: 80, currency: "EUR" },
        timestamp: new Date(Date.now() - 60_000).toISOString(),
      },
      { name: "order.completed", identifier: [{ external_id: "ada" }], data: { total: 20, currency: "EUR" } },
    ]),
  ).toBe(202);

  // The profile: Buyers joined, Big buyers not (one order is under 50); why? shows which node failed.
  await owner.goto(`/projects/${seeded.projectId}/users/${userId}`);
  const panel = owner.getByRole("region", { name: "Lists and journeys" });
  await expect(async () => {
    await owner.reload();
    await expect(
      panel.getByRole("listitem").filter({ has: owner.getByRole("link", { name: "Buyers", exact: true }) }),
    ).toContainText("member", {
      timeout: 5_000,
    });
    await expect(panel.getByRole("listitem").filter({ hasText: "Thank you" })).toContainText("active", {
      timeout: 5_000,
    });
  }).toPass({ timeout: 60_000 });
  await panel.getByRole("button", { name: "Why for Big buyers?" }).click();
  const why = panel.getByLabel("Why for Big buyers", { exact: true });
  await expect(why).toContainText("not a member");
  await expect(why).toContainText("rules do not match now");
  await expect(why).toContainText("found 1 of 2 needed");
  await expect(why).toContainText("(2 before the where clauses)");
  await expect(why).toContainText("total = 20 (needs: at least 50)");
  await expect(why).toContainText('data.plan eq "pro"');
  await panel.getByRole("button", { name: "Why for Thank you?" }).click();
  await expect(panel.getByLabel("Why for Thank you", { exact: true })).toContainText("Refused by the re-entry rule");

  // The timeline: the orders, the list the user joined (with its cause) and the journey entry.
  const timeline = owner.getByRole("list", { name: "Timeline" });
  await expect(timeline).toContainText("Added to Buyers");
  await expect(timeline).toContainText("caused by an event");
  await expect(timeline).toContainText("Entered Thank you");
  await expect(timeline).toContainText("order.completed");
  await shot(owner, "explain-profile");

  // The list page: check a user by identifier.
  await owner.goto(`/projects/${seeded.projectId}/lists/${big.id}`);
  await owner.getByLabel("User identifier or e-mail").fill("ada");
  await owner.getByRole("button", { name: "Check", exact: true }).click();
  await expect(owner.getByLabel("Why for Big buyers", { exact: true })).toContainText("found 1 of 2 needed");
  await shot(owner, "explain-check-user");
  await owner.getByLabel("User identifier or e-mail").fill("nobody-here");
  await owner.getByRole("button", { name: "Check", exact: true }).click();
  await expect(owner.getByText('No user with the identifier or e-mail "nobody-here".')).toBeVisible();

  // Live events: rows say who and preview the data; the trace says where the event went.
  await owner.goto(`/projects/${seeded.projectId}/events?name=order.completed`);
  const row = owner.getByRole("button", { name: /order\.completed.*ada.*total: 80/ });
  await expect(row).toBeVisible();
  await shot(owner, "explain-events");
  await row.click();
  await owner.getByRole("button", { name: /^Where did it go\?/ }).click();
  const dialog = owner.getByRole("dialog", { name: "Where this event went" });
  await expect(dialog).toContainText("Journeys entered");
  await expect(dialog.getByRole("link", { name: "Thank you" })).toBeVisible();
  await expect(dialog.getByRole("link", { name: "ada" })).toBeVisible();
  await owner.keyboard.press("Escape");
  await row.click();
  const later = owner.getByRole("button", { name: /order\.completed.*ada.*total: 20/ });
  await later.click();
  await owner.getByRole("button", { name: /^Where did it go\?/ }).click();
  await expect(dialog.getByRole("link", { name: "Buyers", exact: true })).toBeVisible();
  await expect(dialog).toContainText("added");
  await shot(owner, "explain-trace");
});
