import { z } from "zod";
import { paginationQuery } from "@/lib/http/pagination";

export const requestLogQuery = paginationQuery
  .extend({
    key_id: z.uuid().optional().meta({ description: "Only this key's requests." }),
    status: z
      .string()
      .regex(/^([1-5]xx|[1-5]\d\d|failed)$/, "a status like 422, a class like 4xx, or failed (400 and above)")
      .optional()
      .meta({ description: "`422`, `4xx`, `5xx` or `failed` (every status from 400)." }),
  })
  .meta({ id: "RequestLogQuery" });
export type RequestLogQuery = z.output<typeof requestLogQuery>;

export const loggedRequestOutput = z
  .object({
    id: z.uuid(),
    key_id: z.uuid(),
    key_name: z.string().nullable(),
    key_prefix: z.string().nullable(),
    at: z.iso.datetime(),
    method: z.string(),
    path: z.string().meta({ description: "Path and query string, token-like values scrubbed." }),
    status: z.number().int(),
    duration_ms: z.number().int(),
    request_id: z
      .string()
      .meta({ description: "The `x-request-id` the answer carried: quote it to find the server's log lines." }),
    errors: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .nullable()
      .meta({ description: "The problem's `errors[]` of a failed request." }),
    body: z.string().nullable().meta({
      description:
        "A failed request's body: secret fields (names containing token, secret, password, key; Twilio settings) and API keys redacted, at most 4 KiB.",
    }),
  })
  .meta({ id: "LoggedRequest" });
