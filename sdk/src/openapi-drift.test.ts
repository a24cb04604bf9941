import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clientDocument } from "../scripts/dump-openapi";
import { writeGeneratedTypes } from "../scripts/generated-types";

const committedDocument = () => JSON.parse(readFileSync(new URL("../openapi.json", import.meta.url), "utf8"));
const generatedDir = new URL("./generated/", import.meta.url);

describe("the SDK's types cannot drift from the API", () => {
  it("sdk/openapi.json (the input of src/generated/) equals the server's document for the client paths", () => {
    // On failure: `npm run generate:sdk`, then commit sdk/openapi.json and sdk/src/generated/.
    expect(committedDocument()).toEqual(JSON.parse(JSON.stringify(clientDocument())));
  });

  it("sdk/src/generated/ holds exactly the types generated from sdk/openapi.json", () => {
    // On failure: `npm run generate:sdk` and commit sdk/src/generated/ (a hand edit there fails this too).
    const dir = mkdtempSync(path.join(tmpdir(), "relay-sdk-types-"));
    try {
      writeGeneratedTypes(committedDocument(), dir);
      const fresh = readdirSync(dir).sort();
      expect(readdirSync(generatedDir).sort()).toEqual(fresh);
      for (const file of fresh)
        expect(readFileSync(new URL(file, generatedDir), "utf8"), file).toBe(
          readFileSync(path.join(dir, file), "utf8"),
        );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
