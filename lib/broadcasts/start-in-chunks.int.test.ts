import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { api, createTestProject, ownDatabaseForFile, sql } from "@/scripts/test/helpers";
import { tickBroadcasts } from "./tick-broadcasts";

/*
 * A broadcast's start in bounded chunks, with no worker: the test is the starter. A start cut off between
 * chunks resumes after its last one, and two starters at once still make each member exactly one message.
 */
ownDatabaseForFile("relay_broadcasts_chunks");

describe("starting a broadcast in chunks", () => {
  it("makes each member one message, a chunk at a time, resumed after a cut-off and shared by two starters", async () => {
    const p = await createTestProject("chunks");
    const group = await api("POST", p.admin("/subscription-groups"), {
      key: p.keys.admin,
      body: { name: "News", channel: "email" },
    });
    const templateId = (
      await api("POST", p.admin("/templates"), {
        key: p.keys.editor,
        body: { name: "t", channel: "email", subscription_group: group.body.id, subject: "S", text: "t" },
      })
    ).body.id;
    const list = await api("POST", p.admin("/lists"), { key: p.keys.editor, body: { name: "l", kind: "static" } });
    const users = await sql`insert into users (project_id, email, data)
      select ${p.projectId}, 'c-' || g || '@example.com', '{}' from generate_series(1, 11) g returning id`;
    await sql`insert into list_members (project_id, list_id, user_id)
      select ${p.projectId}, ${list.body.id}, id from users where project_id = ${p.projectId}`;
    const b = await api("POST", p.admin("/broadcasts"), {
      key: p.keys.editor,
      body: { name: "b", template_id: templateId, list_id: list.body.id },
    });
    expect(b.status).toBe(201);
    const ctx = { db: getDb() };
    const state = async () =>
      (
        await sql`select b.state, b.recipients, b.started_through, (select count(*)::int from messages m
          where m.project_id = b.project_id and m.broadcast_id = b.id) as made
          from broadcasts b where b.project_id = ${p.projectId} and b.id = ${b.body.id}`
      )[0]!;

    // One chunk, then the starter stops (as a killed worker would between transactions).
    expect(await tickBroadcasts(ctx, { chunk: 4 })).toBe(1);
    expect(await state()).toMatchObject({ state: "scheduled", recipients: null, made: 4 });
    expect((await state()).started_through).not.toBeNull();

    // Two starters resume it at once: each transaction adds at most one chunk, and each member once.
    const starter = async () => {
      for (let i = 0; i < 20; i++) if (!(await tickBroadcasts(ctx, { chunk: 4 }))) return;
      throw new Error("the start did not end within 20 chunks");
    };
    await Promise.all([starter(), starter()]);
    expect(await state()).toMatchObject({ state: "sending", recipients: 11, made: 11 });
    const per = await sql`select user_id, count(*)::int as n from messages
      where project_id = ${p.projectId} and broadcast_id = ${b.body.id} group by user_id`;
    expect(per.map((r) => r.user_id).sort()).toEqual(users.map((u) => u.id).sort());
    expect(per.every((r) => r.n === 1)).toBe(true);
  }, 120_000);
});
