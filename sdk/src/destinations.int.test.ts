import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createTestProject, type TestProject } from "../../scripts/test/helpers";
import { startReceiver } from "../../scripts/test/webhook-receiver";
import { RelayDestinations, RelayAuthError, RelayValidationError } from "./index";

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("sdk-destinations");
});

describe("RelayDestinations (the SDK's admin client for destinations)", () => {
  it("creates, reads, pings, rotates and lists, with the API's own shapes", async () => {
    const rx = await startReceiver();
    try {
      const editor = new RelayDestinations({ apiKey: p.keys.editor, baseUrl, projectId: p.projectId });
      const made = await editor.create({
        name: "sdk",
        url: rx.url("/sdk"),
        events: ["*"],
        filter: { planType: "pro" },
      });
      expect(made.secret).toMatch(/^whsec_/);
      // Free-form filter keys pass through as written.
      expect(made.filter).toEqual({ planType: "pro" });
      rx.setSecrets([made.secret]);
      const ping = await editor.test(made.id);
      expect(ping.state).toBe("delivered");
      expect(rx.received[0]!.message.type).toBe("relay.ping");
      const rotated = await editor.rotateSecret(made.id);
      expect(rotated.secret).not.toBe(made.secret);
      const support = new RelayDestinations({ apiKey: p.keys.support, baseUrl, projectId: p.projectId });
      const got = await support.get(made.id);
      expect(got.health.attempts_24h).toBe(1);
      expect((got as Record<string, unknown>).secret).toBeUndefined();
      expect((await support.deliveries(made.id, { state: "delivered" })).data).toHaveLength(1);
      expect((await support.list()).data.map((d) => d.id)).toEqual([made.id]);
      await expect(support.update(made.id, { enabled: false })).rejects.toBeInstanceOf(RelayAuthError);
      await expect(editor.create({ name: "bad", url: "https://10.0.0.1/x", events: ["*"] })).rejects.toBeInstanceOf(
        RelayValidationError,
      );
      await editor.delete(made.id);
    } finally {
      await rx.stop();
    }
  });
});
