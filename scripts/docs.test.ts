import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/*
 * The shape of the documentation a newcomer reads first. Links and headings are checked by
 * `npm run lint:docs` (remark-validate-links); these are the rules it cannot express.
 */
const root = join(import.meta.dirname, "..");
const read = (path: string) => readFileSync(join(root, path), "utf8");

describe("the README", () => {
  const lines = read("README.md").split("\n");

  it("is read in ten minutes: at most 250 lines, none over 200 characters, no HTML comments", () => {
    expect(lines.length).toBeLessThanOrEqual(250);
    expect(lines.filter((line) => line.length > 200)).toEqual([]);
    expect(lines.filter((line) => line.includes("<!--"))).toEqual([]);
  });

  it("keeps CI's test command", () => {
    expect(lines.some((line) => line.startsWith("npm test "))).toBe(true);
  });
});

describe("the repository stands alone", () => {
  it("no tracked file cites the design notes or setup notes kept outside it", () => {
    const outside = [["DESIGN", "md"].join("."), ["SETUP", "NOTES"].join("-")];
    const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
      .split("\0")
      .filter((f) => f && !f.startsWith("node_modules/") && !/\.(png|jpe?g|ico|woff2?)$/.test(f));
    const citing = files.filter((f) => {
      let text: string;
      try {
        text = read(f);
      } catch {
        return false; // deleted in the work tree, not yet committed
      }
      return outside.some((name) => text.includes(name));
    });
    expect(citing).toEqual([]);
  });
});

describe("decision records", () => {
  const dir = "docs/decisions";
  const records = readdirSync(join(root, dir)).filter((f) => /^\d{4}-.*\.md$/.test(f));
  const index = read(`${dir}/README.md`);

  it("are each listed in the index", () => {
    expect(records.filter((f) => !index.includes(`](${f})`))).toEqual([]);
  });

  it("each have Context, Options, Decision, Consequences and Reproduce", () => {
    const parts = ["Context", "Options", "Decision", "Consequences", "Reproduce"];
    const missing = records.flatMap((f) => {
      const text = read(`${dir}/${f}`);
      return parts.filter((p) => !new RegExp(`^## ${p}`, "m").test(text)).map((p) => `${f}: ${p}`);
    });
    expect(missing).toEqual([]);
  });
});
