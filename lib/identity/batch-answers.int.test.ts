import { describe, expect, it } from "vitest";
import { ownDatabaseForFile } from "../../scripts/test/helpers";
import { batchProjectForFile, post } from "../../test/fixtures/identity-batches";

// A database of its own, as every identity batch file (test/fixtures/identity-batches.ts).
ownDatabaseForFile("relay_batch_answers");
batchProjectForFile();

describe("a batch's answer for the records it creates", () => {
  // New records are answered from what the inserts returned, existing ones are read back: both must be
  // the same view, identifiers in the stored order (source, then external id, byte-wise).
  const pairs = [
    { source: "zeta", external_id: "view-1" },
    { source: "Alpha", external_id: "view-1", metadata: { rank: 1 } },
    { source: "alpha", external_id: "view-1b" },
    { source: "alpha", external_id: "view-1A" },
    { source: "émile", external_id: "view-1" },
    // UTF-16 order (JavaScript's <) puts the emoji first, byte order (PostgreSQL's collate "C") last.
    { source: "\u{1F600}", external_id: "view-1" },
    { source: "\uFF21", external_id: "view-1" },
  ];
  // Without metadata, a batch of new records writes their pairs in the records' own statement
  // (lib/identity/upsert-records.ts, pairsInsert); with it, in the identifiers statement.
  for (const [path, metadata] of [
    ["/users/batch", true],
    ["/organizations/batch", true],
    ["/users/batch", false],
    ["/organizations/batch", false],
  ] as const) {
    it(`${path}${metadata ? "" : ", no identifier metadata"}: equals the same records read back by a batch that changes nothing`, async () => {
      const tag = `${path.startsWith("/users") ? "u" : "o"}${metadata ? "" : "-bare"}`;
      const sent = metadata ? pairs : pairs.map(({ source, external_id }) => ({ source, external_id }));
      // Keys in an order jsonb does not keep (it stores shorter keys first), numbers JSON can spell
      // several ways, and a third item folded into the first record: the answer is built from what was
      // sent (insertRecords), and must be the same value as the stored record read back.
      const data = {
        zz: 1,
        plan: "pro",
        nested: { y: [1, 2.5, -0, 1e21, 12345678901234567000], b: null },
        "": "empty key",
        é: "ü\u{1F600}",
      };
      const items = [
        { identifier: sent.map((x) => ({ ...x, external_id: `${tag}-${x.external_id}` })), data },
        { identifier: [{ source: "default", external_id: `${tag}-view-2` }] },
        {
          identifier: [{ source: "zeta", external_id: `${tag}-view-1` }],
          data: { plan: "team", added: [true] },
          ...(path.startsWith("/users") ? { email: "Mixed.Case@Example.com", locale: null } : { name: "Folded" }),
        },
      ];
      const made = await post(path, items);
      expect(made.status).toBe(200);
      expect(made.body.created).toBe(2);
      expect(made.body.data[2]).toEqual(made.body.data[0]);
      // As JSON carries it (-0 is sent as 0).
      expect(made.body.data[0].data).toEqual(JSON.parse(JSON.stringify({ ...data, plan: "team", added: [true] })));
      const again = await post(
        path,
        items.map(({ identifier }) => ({
          identifier: identifier.map(({ source, external_id }) => ({ source, external_id })),
        })),
      );
      expect(again.status).toBe(200);
      expect(again.body.created).toBe(0);
      expect(made.body.data).toEqual(again.body.data);
      expect(made.body.data[0].identifier.map((x: { source: string }) => x.source)).toEqual([
        "Alpha",
        "alpha",
        "alpha",
        "zeta",
        "émile",
        "\uFF21",
        "\u{1F600}",
      ]);
    });
  }
});
