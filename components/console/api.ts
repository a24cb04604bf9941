"use client";

/** A problem+json answer from our API, with the server's own message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** Same-origin fetch to the JSON API with the console session cookie; throws ApiError on 4xx/5xx. */
export async function apiFetch<T = any>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(path, {
    method: init.method ?? "GET",
    headers: init.body === undefined ? {} : { "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: "same-origin",
  });
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const detail = body?.detail ?? body?.title ?? `Request failed (${res.status})`;
    const fields =
      Array.isArray(body?.errors) && body.errors.length
        ? ` (${body.errors.map((e: any) => `${e.path || "body"}: ${e.message}`).join("; ")})`
        : "";
    throw new ApiError(res.status, String(detail) + (body?.detail ? "" : fields), body);
  }
  return body as T;
}

export const adminPath = (projectId: string, path: string) => `/api/admin/projects/${projectId}${path}`;
