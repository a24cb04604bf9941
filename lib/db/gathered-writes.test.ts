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

  it("runs at most `parallel` writes at once", async () => {
    let running = 0;
    let most = 0;
    const add = gatheredWrites<number, number>({
      ms: 1,
      max: 2,
      parallel: 2,
      write: async (items) => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 20));
        running--;
        return items;
      },
    });
    const first = [add(1), add(2)];
    await new Promise((r) => setTimeout(r, 5));
    const later = [3, 4, 5, 6, 7, 8].map(add);
    expect(await Promise.all([...first, ...later])).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(most).toBe(2);
  });
});
