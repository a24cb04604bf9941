import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { clientDocument } from "../scripts/dump-openapi";

describe("the SDK's types cannot drift from the API", () => {
  it("sdk/openapi.json (the input of src/generated/) equals the server's document for the client paths", () => {
    const committed = JSON.parse(readFileSync(new URL("../openapi.json", import.meta.url), "utf8"));
    // On failure: `npm run generate:sdk`, then commit sdk/openapi.json and sdk/src/generated/.
    expect(committed).toEqual(JSON.parse(JSON.stringify(clientDocument())));
  });
});
