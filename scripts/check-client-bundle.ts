import { chunksWithDrizzle, entryChunksMatching, GRAPESJS } from "./build/client-bundle";

/**
 * Part of `npm run build`: fails the build when a browser chunk carries the database schema (issue 10,
 * item 5), or when a page loads GrapesJS as it opens (the visual editor is loaded only when it is opened).
 */
const distDir = process.argv[2] ?? ".next";
const found = await chunksWithDrizzle(distDir);
if (found.length) {
  for (const f of found) console.error(`client chunk ${f.file} contains ${JSON.stringify(f.match)}`);
  console.error(
    "A client component imports drizzle (db/schema or a lib module that does). Import plain constants instead (e.g. db/roles.ts via lib/access/roles.ts).",
  );
  process.exit(1);
}
console.log(`client bundle check: no drizzle code in ${distDir}/static`);
const eager = await entryChunksMatching(distDir, GRAPESJS);
if (eager.length) {
  for (const f of eager)
    console.error(`chunk ${f.file} (${JSON.stringify(f.match)}) is loaded on opening ${f.pages.join(", ")}`);
  console.error("GrapesJS reached a page's first scripts: load the visual editor with next/dynamic (ssr: false) only.");
  process.exit(1);
}
console.log("client bundle check: GrapesJS is in no page's entry chunks");
