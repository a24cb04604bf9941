import { z } from "zod";
import { membershipInput, organizationInput } from "@/lib/organizations/schemas";
import { userInput } from "@/lib/users/schemas";

export const IMPORT_KINDS = ["users", "organizations", "memberships"] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
export type ImportFormat = "csv" | "ndjson";

/** Largest upload; larger bodies are refused (413) while streaming. */
export const MAX_IMPORT_BYTES = 1024 ** 3;
/**
 * Largest single row (CSV record or NDJSON line); a longer one is a row error, never buffered further.
 * The API's own limits (20 identifiers of 1,024 characters, 32 KiB of `data`, a few fields) fit well
 * within it; a larger row could only be refused after parsing, so it is refused before.
 */
export const MAX_ROW_BYTES = 128 * 1024;
/** JSON values one NDJSON row may hold (counted on the text, before parsing): 32 KiB of `data` holds fewer. */
export const MAX_ROW_VALUES = 20_000;
/** Nesting of one NDJSON row (counted on the text): `data` may nest 32 levels inside the row's own two. */
export const MAX_ROW_DEPTH = 40;
/** Row errors kept per import (the counts go on). */
export const MAX_ROW_ERRORS = 1000;

/** The media types an import accepts; anything else is a 415. */
export function formatOf(contentType: string | null): ImportFormat | null {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "text/csv" || type === "application/csv") return "csv";
  if (
    [
      "application/x-ndjson",
      "application/ndjson",
      "application/jsonl",
      "application/x-jsonlines",
      "application/jsonlines",
    ].includes(type)
  )
    return "ndjson";
  return null;
}

/** Per kind: the body schema each row must satisfy (the endpoints' own) and the CSV columns that build it. */
export const ROW_SCHEMAS = {
  users: userInput,
  organizations: organizationInput,
  memberships: membershipInput,
} as const;

const CSV_COLUMNS: Record<ImportKind, { required: string[]; optional: string[] }> = {
  users: { required: ["external_id"], optional: ["source", "email", "phone", "timezone", "locale"] },
  organizations: { required: ["external_id"], optional: ["source", "name"] },
  memberships: {
    required: ["organization_external_id", "user_external_id"],
    optional: ["organization_source", "user_source"],
  },
};

/** Problems with a CSV header row (unknown or missing columns), empty when it is usable. */
export function headerProblems(kind: ImportKind, header: string[]): string[] {
  const { required, optional } = CSV_COLUMNS[kind];
  const problems = required.filter((c) => !header.includes(c)).map((c) => `missing column \`${c}\``);
  const seen = new Set<string>();
  for (const c of header) {
    if (seen.has(c)) problems.push(`column \`${c}\` appears twice`);
    seen.add(c);
    if (!required.includes(c) && !optional.includes(c) && !/^data\.[^.]+/.test(c))
      problems.push(`unknown column \`${c}\``);
  }
  return problems;
}

/**
 * A `data.<key>` cell as a typed value: empty is omitted, `true`/`false`/`null` and numbers are JSON
 * values, a cell starting with `{`, `[` or `"` that parses as JSON is that value, anything else a string.
 */
export function typedCell(cell: string): unknown {
  if (cell === "true") return true;
  if (cell === "false") return false;
  if (cell === "null") return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(cell) && Number.isFinite(Number(cell))) return Number(cell);
  if (/^[{["]/.test(cell)) {
    try {
      return JSON.parse(cell);
    } catch {
      return cell;
    }
  }
  return cell;
}

/** A CSV record (with its header) as the upsert body of its kind; empty cells are omitted. */
export function csvRowToBody(kind: ImportKind, header: string[], record: string[]): Record<string, unknown> {
  const cells = new Map<string, string>();
  const data: Record<string, unknown> = {};
  header.forEach((column, i) => {
    const cell = record[i] ?? "";
    if (cell === "") return;
    if (column.startsWith("data.")) data[column.slice(5)] = typedCell(cell);
    else cells.set(column, cell);
  });
  const id = (prefix: string) => [
    {
      external_id: cells.get(`${prefix}external_id`),
      ...(cells.has(`${prefix}source`) ? { source: cells.get(`${prefix}source`) } : {}),
    },
  ];
  const withData = (body: Record<string, unknown>) => (Object.keys(data).length ? { ...body, data } : body);
  if (kind === "memberships")
    return withData({ organization: { identifier: id("organization_") }, user: { identifier: id("user_") } });
  const fields = Object.fromEntries(
    CSV_COLUMNS[kind].optional.filter((c) => c !== "source" && cells.has(c)).map((c) => [c, cells.get(c)]),
  );
  return withData({ identifier: id(""), ...fields });
}

export const importKindQuery = z.object({
  kind: z.enum(IMPORT_KINDS).default("users").meta({ description: "What each row upserts. Default `users`." }),
});
