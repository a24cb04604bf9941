// Builds ESM (dist/esm) and CommonJS (dist/cjs) with declarations, using the TypeScript compiler only.
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
for (const project of ["tsconfig.esm.json", "tsconfig.cjs.json"]) {
  execFileSync(process.execPath, [tsc, "-p", project], { stdio: "inherit", cwd: new URL("..", import.meta.url) });
}
// dist/cjs holds .js files in CommonJS inside a "type": "module" package: mark the folder.
writeFileSync(new URL("../dist/cjs/package.json", import.meta.url), '{ "type": "commonjs" }\n');
