import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { APIRequestContext } from "@playwright/test";

/** A project with an admin key, made through the CLI against the e2e database (see serve-e2e.ts). */
export function createProject(name: string): { projectId: string; key: string } {
  const env = { ...process.env, DATABASE_URL: readFileSync(".next/e2e-database-url", "utf8").trim() };
  const cli = (...args: string[]) =>
    JSON.parse(
      execFileSync("node", ["--import", "tsx", "scripts/cli.ts", ...args, "--json"], { env, encoding: "utf8" })
        .trim()
        .split("\n")
        .pop()!,
    );
  const { projectId } = cli(
    "create-project",
    "--org",
    `e2e-${name}`,
    "--name",
    name,
    "--owner",
    `owner-${Date.now()}@example.com`,
  );
  const { apiKey } = cli("create-key", "--project", projectId, "--role", "admin");
  return { projectId, key: apiKey };
}

/** Seeds groups and one user through the public API and returns what the tests need. */
export async function seedSubscriptions(request: APIRequestContext, name: string) {
  const { projectId, key } = createProject(name);
  const headers = { authorization: `Bearer ${key}` };
  const admin = (path: string) => `/api/admin/projects/${projectId}${path}`;
  const post = async (path: string, data: unknown) => {
    const res = await request.post(path, { headers, data });
    if (!res.ok()) throw new Error(`${path}: ${res.status()} ${await res.text()}`);
    return res.json();
  };
  await post(admin("/subscription-groups"), {
    name: "Product news",
    channel: "email",
    description: "New features and improvements, about once a month.",
  });
  await post(admin("/subscription-groups"), {
    name: "Weekly digest",
    channel: "email",
    description: "A summary of your team’s activity every Monday.",
    default_policy: "opt_in",
  });
  await post(admin("/subscription-groups"), {
    name: "Order texts",
    channel: "sms",
    description: "Delivery updates by text message.",
  });
  const user = await post(`/api/client/projects/${projectId}/users`, {
    identifier: [{ external_id: `${name}-ada` }],
    email: "ada.lovelace@example.com",
    phone: "+14155550123",
  });
  const links = (group?: string) =>
    post(admin("/subscription-links"), { user_id: user.id, ...(group ? { group } : {}) });
  const states = async () => {
    const res = await request.get(admin(`/users/${user.id}/subscriptions`), { headers });
    const body = await res.json();
    return Object.fromEntries(
      body.subscriptions.map((s: any) => [s.group, { state: s.state, source: s.history[0]?.source ?? null }]),
    );
  };
  return { projectId, userId: user.id as string, links, states };
}
