import { describe, expect, it } from "vitest";
import { Invalid } from "@/lib/http/errors";
import { parseWith } from "@/lib/http/read-json";
import { segmentBatch, segmentCall } from "./schemas";
import { toRelayOp } from "./to-relay";

const errorsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof Invalid) return e.errors ?? [];
    throw e;
  }
  throw new Error("did not throw");
};

describe("Segment → Relay mapping", () => {
  it("identify lifts email/phone/timezone/locale out of traits and keeps the rest as data, with both identifiers", () => {
    const m = parseWith(segmentCall("identify"), {
      userId: "u1",
      anonymousId: "a1",
      traits: { email: "a@b.co", locale: "fr-FR", plan: "pro", nested: { x: 1 } },
    });
    expect(toRelayOp(m)).toEqual({
      kind: "user",
      input: {
        identifier: [
          { source: "default", external_id: "u1" },
          { source: "anonymous", external_id: "a1" },
        ],
        email: "a@b.co",
        locale: "fr-FR",
        data: { plan: "pro", nested: { x: 1 } },
      },
    });
  });

  it("track keeps messageId, timestamp and the unmapped envelope (context, unknown fields) but never the writeKey", () => {
    const m = parseWith(segmentCall("track"), {
      userId: 42,
      event: "Bought",
      properties: { amount: 3 },
      messageId: "m-1",
      timestamp: "2026-01-01T00:00:00.000Z",
      context: { ip: "1.2.3.4" },
      somethingNew: true,
      writeKey: "rk_secret",
    });
    const op = toRelayOp(m);
    expect(op).toMatchObject({
      kind: "event",
      input: {
        name: "Bought",
        id: "m-1",
        timestamp: "2026-01-01T00:00:00.000Z",
        identifier: [{ source: "default", external_id: "42" }],
      },
    });
    expect(op.kind === "event" && op.input.data).toEqual({
      amount: 3,
      segment: { context: { ip: "1.2.3.4" }, somethingNew: true },
    });
  });

  it("page and screen become page_viewed / screen_viewed with name and category", () => {
    const page = toRelayOp(
      parseWith(segmentCall("page"), { anonymousId: "a", name: "Home", category: null, properties: { path: "/" } }),
    );
    expect(page).toMatchObject({ kind: "event", input: { name: "page_viewed", data: { name: "Home", path: "/" } } });
    const screen = toRelayOp(parseWith(segmentCall("screen"), { userId: "u", name: "Settings" }));
    expect(screen).toMatchObject({ kind: "event", input: { name: "screen_viewed", data: { name: "Settings" } } });
  });

  it("group maps groupId and traits.name; alias keeps both ids", () => {
    expect(
      toRelayOp(parseWith(segmentCall("group"), { userId: "u", groupId: "g", traits: { name: "Acme", tier: 1 } })),
    ).toEqual({
      kind: "group",
      user: [{ source: "default", external_id: "u" }],
      organization: { identifier: [{ source: "default", external_id: "g" }], name: "Acme", data: { tier: 1 } },
    });
    expect(toRelayOp(parseWith(segmentCall("alias"), { userId: "u", previousId: "a" }))).toMatchObject({
      kind: "alias",
      userId: "u",
      previousId: "a",
    });
  });

  it("bad input names the Segment field, inside a batch with its index", () => {
    expect(errorsOf(() => parseWith(segmentCall("track"), { event: "x" })).map((e: any) => e.path)).toEqual(["userId"]);
    expect(errorsOf(() => parseWith(segmentCall("track"), { userId: "u", event: "" })).map((e: any) => e.path)).toEqual(
      ["event"],
    );
    const batch = parseWith(segmentBatch, {
      batch: [
        { type: "track", userId: "u", event: "ok" },
        { type: "identify", userId: "u", traits: { email: "nope" } },
      ],
    });
    expect(errorsOf(() => batch.map((m, i) => toRelayOp(m, `batch[${i}].`))).map((e: any) => e.path)).toEqual([
      "batch[1].traits.email",
    ]);
    const sys = parseWith(segmentBatch, { batch: [{ type: "track", userId: "u", event: "user.created" }] });
    expect(errorsOf(() => toRelayOp(sys[0]!, "batch[0].")).map((e: any) => e.path)).toEqual(["batch[0].event"]);
    expect(
      errorsOf(() => parseWith(segmentBatch, { batch: [{ type: "nope", userId: "u" }] })).map((e: any) => e.path),
    ).toEqual(["batch[0].type"]);
  });

  it("batch-level context is merged under each message's own", () => {
    const [m] = parseWith(segmentBatch, {
      context: { app: "a", ip: "1" },
      batch: [{ type: "track", userId: "u", event: "e", context: { ip: "2" } }],
    });
    expect(m!.context).toEqual({ app: "a", ip: "2" });
  });
});
