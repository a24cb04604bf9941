import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

/**
 * `npm run bench`: builds the app if needed, then runs every bench/*.bench.ts in turn, each against its
 * own fresh database and server on loopback. Figures are printed; they are not pass/fail tests.
 * `npm run bench -- users` runs only the files whose name contains "users".
 */
const filter = process.argv[2];
if (!existsSync(".next/BUILD_ID")) execFileSync("npm", ["run", "build"], { stdio: "inherit" });
const files = readdirSync("bench")
  .filter((f) => f.endsWith(".bench.ts") && (!filter || f.includes(filter)))
  .sort();
for (const file of files) {
  console.log(`\n=== ${file}`);
  execFileSync(process.execPath, ["--import", "tsx", path.join("bench", file)], { stdio: "inherit", env: process.env });
}
