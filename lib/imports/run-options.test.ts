import { describe, expect, it } from "vitest";
import { DEFAULT_IMPORT_BATCH, importRunOptions, MAX_IMPORT_BATCH } from "./run-options";

// Only the variables under test (process.env types NODE_ENV as required).
const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;

describe("importRunOptions: rows per transaction", () => {
  it("defaults to 5,000 rows, takes IMPORT_BATCH up to 10,000, and ignores a value that is not a positive number", () => {
    expect(DEFAULT_IMPORT_BATCH).toBe(5000);
    expect(importRunOptions(env({})).batchSize).toBe(5000);
    expect(importRunOptions(env({ IMPORT_BATCH: "500" })).batchSize).toBe(500);
    expect(importRunOptions(env({ IMPORT_BATCH: "8000" })).batchSize).toBe(8000);
    expect(importRunOptions(env({ IMPORT_BATCH: "1000000" })).batchSize).toBe(MAX_IMPORT_BATCH);
    expect(importRunOptions(env({ IMPORT_BATCH: "many" })).batchSize).toBe(5000);
    expect(importRunOptions(env({ IMPORT_BATCH: "-3" })).batchSize).toBe(1);
    expect(importRunOptions(env({})).leaseSeconds).toBe(30);
    expect(importRunOptions(env({})).parallel).toBe(2);
    expect(importRunOptions(env({ IMPORT_PARALLEL: "1" })).parallel).toBe(1);
    expect(importRunOptions(env({ IMPORT_PARALLEL: "64" })).parallel).toBe(4);
    expect(importRunOptions(env({ IMPORT_PARALLEL: "x" })).parallel).toBe(2);
    expect(importRunOptions(env({})).orderWaitMs).toBe(60_000);
    expect(importRunOptions(env({ IMPORT_ORDER_WAIT_MS: "5" })).orderWaitMs).toBe(1000);
  });
});
