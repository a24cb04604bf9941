import { describe, expect, it } from "vitest";
import { api, createTestProject, ownDatabaseForFile, sql } from "../../scripts/test/helpers";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const body = (id: string) => ({ identifier: [{ external_id: id }] });

/**
 * The server keeps looked-up keys in memory (lib/access/key-cache.ts), for the default 10 s. On a database
 * and server of the file's own: any key change in the database drops every cached key (NOTIFY is per
 * database), and other files create projects, and so keys, while these run.
 */
ownDatabaseForFile("relay_key_cache");
describe("API keys held in the web process", () => {
  it("are served from memory, and dropped by the change's NOTIFY long before the TTL", async () => {
    const p = await createTestProject("key-cache");
    const key = p.keys.client;
    // The first keyed requests open the LISTEN connection; after that the key is kept.
    expect((await api("POST", p.client("/users"), { key, body: body("kc-1") })).status).toBe(201);
    await pause(300);
    expect((await api("POST", p.client("/users"), { key, body: body("kc-2") })).status).toBe(201);

    // Revoked without the trigger (this session replays as a replica): no announcement, so the server
    // still accepts the key it holds. This is what shows the key is not read from the table per request.
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`update api_keys set revoked_at = now() where project_id = ${p.projectId} and role = 'client'`;
    });
    expect((await api("POST", p.client("/users"), { key, body: body("kc-3") })).status).toBe(201);

    // Any change to the row through the trigger announces it; the key stops working within a second.
    const announced = Date.now();
    await sql`update api_keys set name = name where project_id = ${p.projectId} and role = 'client'`;
    let status = 0;
    while (Date.now() - announced < 1_000) {
      status = (await api("POST", p.client("/users"), { key, body: body("kc-4") })).status;
      if (status === 401) break;
      await pause(50);
    }
    expect(status).toBe(401);
  });
});
