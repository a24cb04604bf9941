import { z } from "zod";
import { Invalid } from "./errors";
import { parseWith } from "./read-json";

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;

export const paginationQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  cursor: z.string().max(512).optional(),
});

/** Opaque cursors: base64url JSON of the last row's sort key. */
export function encodeCursor(value: unknown[]): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

export function decodeCursor<T extends unknown[]>(cursor: string | undefined, check: z.ZodType<T>): T | undefined {
  if (!cursor) return undefined;
  try {
    return check.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
  } catch {
    throw new Invalid("The cursor is not one this API returned.", {
      errors: [{ path: "cursor", message: "invalid cursor" }],
    });
  }
}

/** Parses the URL's query string with a zod schema; errors name the parameter. */
export function readQuery<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  const params = Object.fromEntries(new URL(req.url).searchParams);
  return parseWith(schema, params, "The query string");
}

/** Fetch `limit + 1` rows, return `limit` and a cursor when there were more. */
export function page<T>(rows: T[], limit: number, cursorOf: (row: T) => unknown[]) {
  const more = rows.length > limit;
  const data = more ? rows.slice(0, limit) : rows;
  return { data, next_cursor: more && data.length ? encodeCursor(cursorOf(data[data.length - 1]!)) : null };
}
