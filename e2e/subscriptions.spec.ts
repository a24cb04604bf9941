import { expect, test } from "@playwright/test";
import { seedSubscriptions } from "./subscriptions-seed";

test("the unsubscribe confirmation: opening the link changes nothing, the button unsubscribes", async ({
  page,
  request,
}) => {
  const s = await seedSubscriptions(request, "unsubscribe-page");
  const { unsubscribe_url } = await s.links("Product news");
  await page.goto(new URL(unsubscribe_url).pathname);
  await expect(page.getByRole("heading", { name: "Unsubscribe from Product news?" })).toBeVisible();
  await expect(page.getByText("a••••••@example.com")).toBeVisible();
  expect((await s.states())["Product news"].state).toBeNull(); // a scanner following the link changes nothing
  await page.screenshot({ path: "test-results/unsubscribe-confirm.png", fullPage: true });

  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("heading", { name: "You’re unsubscribed from Product news" })).toBeVisible();
  expect((await s.states())["Product news"]).toEqual({ state: "unsubscribed", source: "unsubscribe_page" });
  expect((await s.states())["Weekly digest"].state).toBeNull();
  await page.screenshot({ path: "test-results/unsubscribe-done.png", fullPage: true });

  await page.getByRole("link", { name: /Manage all your preferences/ }).click();
  await expect(page.getByRole("heading", { name: "Your subscriptions" })).toBeVisible();
  await expect(
    page.getByRole("radiogroup", { name: /Product news/ }).getByRole("radio", { name: "Unsubscribed", exact: true }),
  ).toBeChecked();
});

test("a tampered unsubscribe link is refused and changes nothing", async ({ page, request }) => {
  const s = await seedSubscriptions(request, "unsubscribe-tampered");
  const { unsubscribe_url } = await s.links("Product news");
  const path = new URL(unsubscribe_url).pathname.replace("/u/", "/unsubscribe/");
  const res = await page.goto(path.slice(0, -3) + (path.endsWith("AAA") ? "BBB" : "AAA"));
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This unsubscribe link is not valid" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/unsubscribe-invalid.png", fullPage: true });
  expect((await s.states())["Product news"].state).toBeNull();
});

test("the preference center lists every group and saves what the person changes", async ({ page, request }) => {
  const s = await seedSubscriptions(request, "preference-center");
  const { preferences_url } = await s.links();
  await page.goto(new URL(preferences_url).pathname);
  await expect(page.getByRole("heading", { name: "Your subscriptions" })).toBeVisible();
  const group = (name: string) => page.getByRole("radiogroup", { name: new RegExp(name) });
  // Unset states show the policy's default: opt-out groups subscribed, the opt-in digest not.
  await expect(group("Product news").getByRole("radio", { name: "Subscribed", exact: true })).toBeChecked();
  await expect(group("Weekly digest").getByRole("radio", { name: "Unsubscribed", exact: true })).toBeChecked();
  await expect(group("Order texts").getByRole("radio", { name: "Subscribed", exact: true })).toBeChecked();
  await expect(page.getByText("A summary of your team’s activity every Monday.")).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: "test-results/preferences.png", fullPage: true });

  await group("Product news").getByText("Unsubscribed").click();
  await group("Weekly digest").getByText("Subscribed", { exact: true }).click();
  await page.getByRole("button", { name: "Save preferences" }).click();
  await expect(page.getByRole("status")).toHaveText("Your preferences are saved.");
  await expect(group("Product news").getByRole("radio", { name: "Unsubscribed", exact: true })).toBeChecked();
  await expect(group("Weekly digest").getByRole("radio", { name: "Subscribed", exact: true })).toBeChecked();
  expect(await s.states()).toEqual({
    "Order texts": { state: null, source: null },
    "Product news": { state: "unsubscribed", source: "preference_center" },
    "Weekly digest": { state: "subscribed", source: "preference_center" },
  });
  await page.screenshot({ path: "test-results/preferences-saved.png", fullPage: true });

  await page.getByRole("button", { name: "Unsubscribe from all" }).click();
  await expect(page.getByRole("status")).toHaveText("You’re unsubscribed from everything below.");
  for (const name of ["Product news", "Weekly digest", "Order texts"])
    await expect(group(name).getByRole("radio", { name: "Unsubscribed", exact: true })).toBeChecked();
  expect(Object.values(await s.states()).every((v: any) => v.state === "unsubscribed")).toBe(true);

  // On a phone-sized screen the page still reads well.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/preferences-mobile.png", fullPage: true });
});
