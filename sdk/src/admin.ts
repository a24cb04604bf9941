import { Http, type HttpOptions } from "./http.js";

/** The JSON body of a response or request in the generated `paths`. */
export type Json<R> = R extends { content: { "application/json": infer B } } ? B : never;
export type Body<Op> = Op extends { requestBody: { content: { "application/json": infer B } } } ? B : never;
export type Query<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** `T` with the fields `K` optional: the document lists fields that have a server default as present. */
export type Defaulted<T, K extends PropertyKey> = T extends unknown
  ? Omit<T, K & keyof T> & Partial<Pick<T, K & keyof T>>
  : never;
export type Page<T> = { data: T[]; next_cursor: string | null };

export interface AdminOptions extends HttpOptions {
  /** The project the calls are about; the key needs role `support` to read and `editor` (some `admin`) to write. */
  projectId: string;
}

export const query = (q: Record<string, string | number | boolean | undefined>) => {
  const s = new URLSearchParams(
    Object.entries(q).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  ).toString();
  return s ? `?${s}` : "";
};

export type AdminCall = <T>(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, body?: unknown) => Promise<T>;

/**
 * Calls under `/api/admin/projects/{projectId}` with bodies and answers in the API's own snake_case (no
 * renaming: template variables, step data and event data are the caller's and pass through untouched).
 */
export function adminCall(opts: AdminOptions): AdminCall {
  const http = new Http(opts);
  const base = `/api/admin/projects/${encodeURIComponent(opts.projectId)}`;
  return (method, path, body) => http.request(method, `${base}${path}`, body, { raw: true });
}

/** One path segment from a caller's id. */
export const seg = (id: string) => `/${encodeURIComponent(id)}`;

/** An admin API client: its calls go under the project's admin path (see `adminCall`). */
export class AdminClient {
  readonly #call: AdminCall;

  constructor(opts: AdminOptions) {
    this.#call = adminCall(opts);
  }

  protected call<T>(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<T> {
    return this.#call<T>(method, path, body);
  }
}
