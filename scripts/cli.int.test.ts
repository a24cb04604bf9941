import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { api, sql } from "./test/helpers";

const run = promisify(execFile);
const cli = (...args: string[]) =>
  run(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], { env: { ...process.env, DATABASE_URL: inject("databaseUrl") } });

describe("npm run cli", () => {
  it("create-project --json prints org, project and a working client key; create-key adds a key of a role", async () => {
    const { stdout } = await cli("create-project", "--org", "CLI Org", "--name", "CLI Project", "--owner", "Owner@Example.com", "--json");
    const out = JSON.parse(stdout.trim());
    expect(Object.keys(out).sort()).toEqual(["apiKey", "orgId", "projectId"]);
    const [owner] = await sql`select m.role from admin_org_members m join admins a on a.id = m.admin_id where m.org_id = ${out.orgId} and lower(a.email) = 'owner@example.com'`;
    expect(owner!.role).toBe("owner");

    const upsert = await api("POST", `/api/client/projects/${out.projectId}/users`, { key: out.apiKey, body: { identifier: [{ external_id: "from-cli" }] } });
    expect(upsert.status).toBe(201);

    const support = JSON.parse((await cli("create-key", "--project", out.projectId, "--role", "support", "--json")).stdout.trim());
    expect(support.role).toBe("support");
    expect((await api("GET", `/api/admin/projects/${out.projectId}/users`, { key: support.apiKey })).body.data).toHaveLength(1);
    expect((await api("POST", `/api/client/projects/${out.projectId}/users`, { key: support.apiKey, body: { identifier: [{ external_id: "x" }] } })).status).toBe(403);
  });

  it("refuses bad arguments with exit code 2 and the usage", async () => {
    await expect(cli("create-key", "--project", "nope", "--role", "owner")).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("--role must be one of support, client, editor, admin") });
    await expect(cli("create-project", "--org", "x")).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("Usage:") });
  });
});
