import { z } from "zod";

/** What operations answer: the problem+json errors every route can give, and the response sets operations share. */

export const problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details. `errors[].path` points into the request body." });

const problemContent = { "application/problem+json": { schema: problem } };

/** The error answers every authenticated endpoint can give, with what they mean here. */
export const COMMON_ERRORS = {
  400: {
    description: "Malformed JSON or an invalid body; `errors` lists each bad field's path.",
    content: problemContent,
  },
  401: { description: "Missing, unknown or revoked API key.", content: problemContent },
  403: { description: "The key belongs to another project or its role is too low.", content: problemContent },
  413: { description: "Body over 1 MiB.", content: problemContent },
  415: { description: "Body not sent as `application/json`.", content: problemContent },
  429: { description: "Rate limited; retry after `Retry-After` seconds.", content: problemContent },
  503: { description: "Database unavailable; retry.", content: problemContent },
} as const;

export const errorResponse = (description: string) => ({ description, content: problemContent });

export const jsonResponse = (schema: z.ZodType, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** The answers of an operation on one record: 200 with `schema`, or 404 (`missing` says what is not there). */
export const found = (schema: z.ZodType, description: string, missing: string) => ({
  200: jsonResponse(schema, description),
  404: errorResponse(missing),
});

/** The answers of removing one record: 204 (`done` says what became of it), or 404. */
export const gone = (done: string, missing: string) => ({ 204: { description: done }, 404: errorResponse(missing) });

/** The answer of an operation that cannot miss: 200 with `schema`. */
export const ok = (schema: z.ZodType, description: string) => ({ 200: jsonResponse(schema, description) });
