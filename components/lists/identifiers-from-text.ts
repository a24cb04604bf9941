import { parse } from "csv-parse/browser/esm/sync";

export type ExternalRef = { source: string; external_id: string };

/**
 * Identifiers from pasted text or an uploaded CSV: one per line, or a CSV whose header names an
 * `external_id` column (and optionally `source`); otherwise the first column. Blank cells are skipped.
 */
export function identifiersFromText(text: string): ExternalRef[] {
  const rows = parse(text, { skip_empty_lines: true, relax_column_count: true, trim: true, bom: true }) as string[][];
  if (!rows.length) return [];
  const header = rows[0]!.map((h) => h.toLowerCase());
  const idCol = header.findIndex((h) => h === "external_id" || h === "externalid" || h === "id");
  const sourceCol = header.indexOf("source");
  const body = idCol >= 0 ? rows.slice(1) : rows;
  const col = Math.max(idCol, 0);
  const seen = new Set<string>();
  const out: ExternalRef[] = [];
  for (const r of body) {
    const external_id = r[col]?.trim();
    if (!external_id) continue;
    const source = (sourceCol >= 0 ? r[sourceCol]?.trim() : "") || "default";
    const k = `${source}\u0000${external_id}`;
    if (!seen.has(k)) seen.add(k), out.push({ source, external_id });
  }
  return out;
}
