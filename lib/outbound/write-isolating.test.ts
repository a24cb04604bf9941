import { describe, expect, it } from "vitest";
import { writeIsolating } from "./write-isolating";

/** A write that refuses, as PostgreSQL would (22P05), any batch holding a row with `bad`. */
function table(opts: { away?: boolean } = {}) {
  const rows: { id: number; text: string }[] = [];
  let writes = 0;
  const write = async (batch: { id: number; text: string; bad?: boolean }[]) => {
    writes++;
    if (opts.away) throw Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });
    if (batch.some((r) => r.bad)) throw Object.assign(new Error("unsupported Unicode escape"), { code: "22P05" });
    rows.push(...batch.map(({ id, text }) => ({ id, text })));
  };
  return { rows, write, writes: () => writes };
}

const how = (write: ReturnType<typeof table>["write"]) => ({
  write,
  bare: (o: { id: number; text: string; bad?: boolean }) => ({ id: o.id, text: "(not stored)" }),
  describe: (o: { id: number }) => ({ id: o.id }),
  what: "test outcome",
});

describe("writeIsolating", () => {
  it("halves a refused batch until the bad row stands alone, writes it bare and every other row as it came", async () => {
    const t = table();
    const batch = Array.from({ length: 16 }, (_, i) => ({ id: i, text: `t${i}`, bad: i === 11 }));
    expect(await writeIsolating(batch, how(t.write))).toEqual([]);
    expect(t.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(batch.map((r) => r.id));
    expect(t.rows.find((r) => r.id === 11)!.text).toBe("(not stored)");
    expect(t.rows.filter((r) => r.text === "(not stored)")).toHaveLength(1);
    // One bad row in 16: the whole, then one half at each of four levels (and its sibling), then bare.
    expect(t.writes()).toBeLessThanOrEqual(2 * Math.log2(16) + 2);
  });

  it("answers the whole batch, unwritten, when the database is away", async () => {
    const t = table({ away: true });
    const batch = [
      { id: 1, text: "a" },
      { id: 2, text: "b" },
    ];
    expect(await writeIsolating(batch, how(t.write))).toEqual(batch);
    expect(t.writes()).toBe(1);
  });
});
