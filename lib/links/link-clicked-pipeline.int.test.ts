import { describe, expect, it } from "vitest";
import { api, baseUrl } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import { p, useProjectWithWorker } from "../../test/fixtures/project-with-worker";

useProjectWithWorker("link-pipeline");

describe("link.clicked and user.subscription.changed go through the pipeline", () => {
  it("the worker discovers their properties in the schema (pipeline step 2)", async () => {
    const user = await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "clicker" }] },
    });
    const { links } = (
      await api("POST", p.admin("/links"), {
        key: p.keys.editor,
        body: { campaign_id: "welcome", user_id: user.body.id, urls: ["https://example.com/start"] },
      })
    ).body;
    expect(
      (await fetch(links[0].tracked_url.replace(/^https?:\/\/[^/]+/, baseUrl), { redirect: "manual" })).status,
    ).toBe(302);
    await api("POST", p.admin("/subscription-groups"), { key: p.keys.admin, body: { name: "News", channel: "email" } });
    await api("POST", p.client("/users/subscriptions"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "clicker" }], subscriptions: [{ group: "News", state: "unsubscribed" }] },
    });

    const clicked = await waitFor(
      async () => (await api("GET", p.admin("/schema?name=link.clicked"), { key: p.keys.support })).body.data?.[0],
      30_000,
      "link.clicked in the schema",
    );
    expect(clicked.properties.map((x: any) => x.path)).toEqual(expect.arrayContaining(["campaign_id", "original_url"]));
    const changed = await waitFor(
      async () =>
        (await api("GET", p.admin("/schema?name=user.subscription.changed"), { key: p.keys.support })).body.data?.[0],
      30_000,
      "user.subscription.changed in the schema",
    );
    expect(changed.properties.map((x: any) => x.path)).toEqual(expect.arrayContaining(["group", "state", "source"]));
  });
});
