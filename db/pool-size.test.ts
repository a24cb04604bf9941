import { describe, expect, it } from "vitest";
import { DEFAULT_POOL_SIZE, poolSize } from "./client";

describe("poolSize", () => {
  it("defaults by process: a web process keeps a few connections, the worker more", () => {
    expect(poolSize({})).toBe(DEFAULT_POOL_SIZE.web);
    expect(poolSize({ RELAY_PROCESS: "web" })).toBe(DEFAULT_POOL_SIZE.web);
    expect(poolSize({ RELAY_PROCESS: "dev" })).toBe(DEFAULT_POOL_SIZE.web);
    expect(poolSize({ RELAY_PROCESS: "worker" })).toBe(DEFAULT_POOL_SIZE.worker);
    // The scale tests name their processes worker-1, worker-2, ...
    expect(poolSize({ RELAY_PROCESS: "worker-2" })).toBe(DEFAULT_POOL_SIZE.worker);
    expect(DEFAULT_POOL_SIZE.web).toBeLessThan(DEFAULT_POOL_SIZE.worker);
  });

  it("takes DATABASE_POOL_SIZE over the default, in any process", () => {
    expect(poolSize({ DATABASE_POOL_SIZE: "20" })).toBe(20);
    expect(poolSize({ DATABASE_POOL_SIZE: " 3 ", RELAY_PROCESS: "worker" })).toBe(3);
    expect(poolSize({ DATABASE_POOL_SIZE: "" })).toBe(DEFAULT_POOL_SIZE.web);
  });

  it("refuses a value that is not a whole number from 1 to 1000, rather than start with a broken pool", () => {
    for (const bad of ["0", "-1", "2.5", "ten", "1e9", "1001"]) {
      expect(() => poolSize({ DATABASE_POOL_SIZE: bad })).toThrow(/DATABASE_POOL_SIZE must be a whole number/);
    }
  });
});
