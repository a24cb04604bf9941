import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeGeneratedTypes } from "./generated-types";

/** `npm run generate:sdk` (after dump-openapi.ts): sdk/openapi.json's types into sdk/src/generated/. */
const sdk = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
writeGeneratedTypes(JSON.parse(readFileSync(path.join(sdk, "openapi.json"), "utf8")), path.join(sdk, "src/generated"));
