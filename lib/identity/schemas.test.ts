import { describe, expect, it } from "vitest";
import { formatPath } from "@/lib/http/zod-errors";
import { parseWith } from "@/lib/http/read-json";
import { Invalid } from "@/lib/http/errors";
import { userInput } from "@/lib/users/schemas";
import { identifierList } from "./schemas";

describe("identifier schema", () => {
  it("defaults source to `default` and accepts externalId as an alias", () => {
    expect(identifierList.parse([{ externalId: "a" }, { external_id: "b", source: "crm" }])).toEqual([
      { source: "default", external_id: "a" },
      { source: "crm", external_id: "b" },
    ]);
  });

  it("collapses repeats of the same pair, merging their metadata", () => {
    expect(
      identifierList.parse([
        { external_id: "a", metadata: { x: 1 } },
        { externalId: "a", metadata: { y: 2 } },
      ]),
    ).toEqual([{ source: "default", external_id: "a", metadata: { x: 1, y: 2 } }]);
  });

  it("accepts `metadata: null` as responses carry it, meaning none", () => {
    expect(identifierList.parse([{ source: "crm", external_id: "a", metadata: null }])).toEqual([
      { source: "crm", external_id: "a" },
    ]);
    expect(
      identifierList.parse([
        { external_id: "a", metadata: { x: 1 } },
        { external_id: "a", metadata: null },
      ]),
    ).toEqual([{ source: "default", external_id: "a", metadata: { x: 1 } }]);
  });

  it("refuses an empty list, a missing value and disagreeing spellings", () => {
    expect(identifierList.safeParse([]).success).toBe(false);
    expect(identifierList.safeParse([{ source: "x" }]).success).toBe(false);
    expect(identifierList.safeParse([{ external_id: "a", externalId: "b" }]).success).toBe(false);
  });
});

describe("error paths", () => {
  it("formats zod paths as body paths", () => {
    expect(formatPath([2, "identifier"])).toBe("[2].identifier");
    expect(formatPath(["identifier", 0, "external_id"])).toBe("identifier[0].external_id");
    expect(formatPath([])).toBe("");
  });

  it("names each unknown field at its own path", () => {
    try {
      parseWith(userInput, { identifier: [{ external_id: "a", colour: 1 }], nickname: "x" });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(Invalid);
      expect((err as Invalid).errors!.map((e) => e.path).sort()).toEqual(["identifier[0].colour", "nickname"]);
    }
  });
});
