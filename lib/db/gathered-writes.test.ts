import { describe, expect, it } from "vitest";
import { gatheredWrites } from "./gathered-writes";

describe("gatheredWrites", () => {
  it("writes what arrives within the window together, at most `max` at once, each caller its own result", async () => {
    const writes: number[][] = [];
    const add = gatheredWrites<number, number>({
      ms: 20,
      max: 3,
      write: async (items) => {
        writes.push(items);
        return items.map((n) => n * 10);
      },
    });
    const results = await Promise.all([1, 2, 3, 4, 5].map(add));
    expect(results).toEqual([10, 20, 30, 40, 50]);
    expect(writes).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it("rejects every caller of a failed write, and the next write runs", async () => {
    let fail = true;
    const add = gatheredWrites<string, string>({
      ms: 5,
      max: 10,
      write: async (items) => {
        if (fail) {
          fail = false;
          throw new Error("database away");
        }
        return items;
      },
    });
    const first = await Promise.allSettled([add("a"), add("b")]);
    expect(first.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await add("c")).toBe("c");
  });
});
