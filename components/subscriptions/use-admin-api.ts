"use client";
import { useCallback, useEffect, useState } from "react";

/** Same-origin call to the admin API with the console session cookie; throws the problem's detail. */
export async function adminFetch<T = any>(projectId: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`/api/admin/projects/${projectId}${path}`, {
    method: init.method ?? "GET",
    headers: init.body === undefined ? {} : { "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: "same-origin",
  });
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const fields = Array.isArray(body?.errors) ? body.errors.map((e: { path: string; message: string }) => `${e.path}: ${e.message}`).join("; ") : "";
    throw Object.assign(new Error(`${body?.detail ?? `Request failed (${res.status})`}${fields && !body?.detail?.includes(fields) ? ` (${fields})` : ""}`), { status: res.status });
  }
  return body as T;
}

/** A GET that reloads on demand. */
export function useAdminGet<T>(projectId: string, path: string | null) {
  const [state, setState] = useState<{ data?: T; error?: Error & { status?: number }; loading: boolean }>({ loading: true });
  const reload = useCallback(async () => {
    if (!path) return setState({ loading: false });
    try {
      setState({ data: await adminFetch<T>(projectId, path), loading: false });
    } catch (error) {
      setState({ error: error as Error, loading: false });
    }
  }, [projectId, path]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { ...state, reload };
}
