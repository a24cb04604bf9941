import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { api, sql } from "./test/helpers";

const run = promisify(execFile);
const cli = (...args: string[]) =>
  run(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], {
    env: { ...process.env, DATABASE_URL: inject("databaseUrl") },
  });
/** Runs a command with `--json` and parses what it printed. */
const cliJson = async (...args: string[]) => JSON.parse((await cli(...args, "--json")).stdout.trim());
/** A key of `role` in the project, with any more `create-key` options. */
const createKey = (projectId: string, role: string, ...more: string[]) =>
  cliJson("create-key", "--project", projectId, "--role", role, ...more);
/** `cli(...args)` fails with exit code 2 (a usage error) and its stderr says `message`. */
const refused = (args: string[], message: string) =>
  expect(cli(...args)).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining(message) });
/** A project in an org of its own (the name made unique), owned by `owner`. */
const freshProject = (org: string, name: string, owner: string) =>
  cliJson("create-project", "--org", `${org} ${crypto.randomUUID()}`, "--name", name, "--owner", owner);

describe("npm run cli", () => {
  it("create-project --json prints org, project and a working client key; create-key adds a key of a role", async () => {
    const { stdout } = await cli(
      "create-project",
      "--org",
      "CLI Org",
      "--name",
      "CLI Project",
      "--owner",
      "Owner@Example.com",
      "--json",
    );
    const out = JSON.parse(stdout.trim());
    expect(Object.keys(out).sort()).toEqual(["apiKey", "orgId", "ownerPromotedFrom", "projectId"]);
    expect(out.ownerPromotedFrom).toBeNull();
    const [owner] =
      await sql`select m.role from admin_org_members m join admins a on a.id = m.admin_id where m.org_id = ${out.orgId} and lower(a.email) = 'owner@example.com'`;
    expect(owner!.role).toBe("owner");

    const upsert = await api("POST", `/api/client/projects/${out.projectId}/users`, {
      key: out.apiKey,
      body: { identifier: [{ external_id: "from-cli" }] },
    });
    expect(upsert.status).toBe(201);

    const support = await createKey(out.projectId, "support");
    expect(support.role).toBe("support");
    expect(
      (await api("GET", `/api/admin/projects/${out.projectId}/users`, { key: support.apiKey })).body.data,
    ).toHaveLength(1);
    expect(
      (
        await api("POST", `/api/client/projects/${out.projectId}/users`, {
          key: support.apiKey,
          body: { identifier: [{ external_id: "x" }] },
        })
      ).status,
    ).toBe(403);
  });

  it("refuses bad arguments with exit code 2 and the usage", async () => {
    await refused(
      ["create-key", "--project", "nope", "--role", "owner"],
      "--role must be one of support, client, editor, admin",
    );
    await refused(["create-project", "--org", "x"], "Usage:");
  });

  it("create-project makes --owner the owner of a reused org where they were a plain member", async () => {
    const orgName = `Shared ${crypto.randomUUID()}`;
    const first = await cliJson("create-project", "--org", orgName, "--name", "One", "--owner", "boss@example.com");
    const [member] =
      await sql`insert into admins (email) values (${`member-${crypto.randomUUID()}@example.com`}) returning id, email`;
    await sql`insert into admin_org_members (org_id, admin_id, role) values (${first.orgId}, ${member!.id}, 'member')`;

    const { stdout } = await cli("create-project", "--org", orgName, "--name", "Two", "--owner", member!.email);
    expect(stdout).toContain(`was member of the existing org "${orgName}" and is now its owner`);
    const [row] =
      await sql`select role from admin_org_members where org_id = ${first.orgId} and admin_id = ${member!.id}`;
    expect(row!.role).toBe("owner");
    const [project] = await sql`select org_id from projects where name = 'Two' and org_id = ${first.orgId}`;
    expect(project).toBeDefined();
  });

  it("create-key --origin makes a browser key of the client role, and refuses a non-origin or another role", async () => {
    const p = await freshProject("Origin", "O", "origin@example.com");
    const k = await createKey(
      p.projectId,
      "client",
      "--origin",
      "https://shop.example.com",
      "--origin",
      "http://localhost:5173",
    );
    expect(k.allowedOrigins).toEqual(["https://shop.example.com", "http://localhost:5173"]);
    const [row] = await sql`select allowed_origins from api_keys where id = ${k.keyId}`;
    expect(row!.allowed_origins).toEqual(["https://shop.example.com", "http://localhost:5173"]);
    await refused(
      ["create-key", "--project", p.projectId, "--role", "client", "--origin", "https://shop.example.com/path"],
      "--origin https://shop.example.com/path: must be an origin",
    );
    await refused(
      ["create-key", "--project", p.projectId, "--role", "admin", "--origin", "https://shop.example.com"],
      "--origin",
    );
  });

  it("create-key --rate <n>/s --burst <n> sets the key's limits, and refuses a burst below the rate", async () => {
    const p = await freshProject("Rate", "R", "rate@example.com");
    const k = await createKey(p.projectId, "support", "--rate", "7/s", "--burst", "9");
    expect(k).toMatchObject({ ratePerSecond: 7, burst: 9 });
    const [row] = await sql`select rate_limit_per_second, rate_limit_burst from api_keys where id = ${k.keyId}`;
    expect(row).toEqual({ rate_limit_per_second: 7, rate_limit_burst: 9 });
    const res = await api("GET", `/api/admin/projects/${p.projectId}/users`, { key: k.apiKey });
    expect(res.headers.get("ratelimit-limit")).toBe("9");
    await refused(
      ["create-key", "--project", p.projectId, "--role", "support", "--rate", "10/s", "--burst", "5"],
      "--burst: The burst must be at least rate_limit_per_second",
    );
    await refused(
      ["create-key", "--project", p.projectId, "--role", "support", "--rate", "fast"],
      "--rate must look like 20/s",
    );
  });
});
