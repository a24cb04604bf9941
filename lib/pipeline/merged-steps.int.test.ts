import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";
import { getDb } from "../../db/client";
import { mergedGroups, MERGED_STEP_EVENTS, runListsSteps } from "./step-jobs";

/*
 * Steps 3-4 decide the jobs a worker fetched together in one pass per project. The pass must do exactly
 * what one pass per job would (every buyer in the list once, one list.user.added each, a marker per
 * batch), a re-run must do nothing, and one bad job must fail alone while the others are done.
 */
let p: TestProject;
let listId: string;
const buyers: string[] = [];

beforeAll(async () => {
  p = await createTestProject("merged-steps");
  const list = await api("POST", p.admin("/lists"), {
    key: p.keys.editor,
    body: { name: "Buyers", kind: "dynamic", rules: { event: { name: "Purchased", at_least: 1 } } },
  });
  expect(list.status).toBe(201);
  listId = list.body.id;
  for (let i = 0; i < 12; i++) {
    const res = await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: `m-${i}` }] },
    });
    buyers.push(res.body.id);
  }
});

/** Records `n` Purchased events per user directly (as the drain would) and returns one job per slice of `per` events. */
async function recordedJobs(users: string[], per: number) {
  const rows = await sql<{ id: string }[]>`
    insert into events (project_id, name, user_id, data, origin)
    select ${p.projectId}, 'Purchased', u::uuid, '{}'::jsonb, 'client' from unnest(${users}::text[]) u returning id`;
  const jobs = [];
  for (let i = 0; i < rows.length; i += per) {
    jobs.push({
      projectId: p.projectId,
      batchId: crypto.randomUUID(),
      names: ["Purchased"],
      eventIds: rows.slice(i, i + per).map((r) => r.id),
    });
  }
  return jobs;
}

const members = async () =>
  (
    await sql`select user_id from list_members where project_id = ${p.projectId} and list_id = ${listId} order by user_id`
  ).map((r) => r.user_id);
const added = async () =>
  (
    await sql`select user_id, count(*)::int as n from events where project_id = ${p.projectId} and name = 'list.user.added' and data->>'list_id' = ${listId} group by 1`
  ).map((r) => ({ user: r.user_id, n: r.n }));
const markers = async (batchIds: string[]) =>
  (
    await sql`select count(*)::int as n from pipeline_steps_done where project_id = ${p.projectId} and step = 'pipeline.lists' and batch_id = any(${batchIds}::uuid[])`
  )[0]!.n;

describe("merged pipeline steps", () => {
  it("twenty jobs decided in one pass put every buyer in the list once, mark every batch, and a re-run does nothing", async () => {
    const jobs = await recordedJobs(
      buyers.slice(0, 10).flatMap((u) => [u, u]),
      1,
    );
    expect(jobs).toHaveLength(20);
    await runListsSteps({ db: getDb() }, jobs);
    expect(await members()).toEqual([...buyers.slice(0, 10)].sort());
    expect((await added()).every((a) => a.n === 1)).toBe(true);
    expect(await added()).toHaveLength(10);
    expect(await markers(jobs.map((j) => j.batchId))).toBe(20);
    await runListsSteps({ db: getDb() }, jobs);
    expect(await added()).toHaveLength(10);
  });

  it("a bad job fails alone: the others of its fetch are done, and the error is thrown for a retry", async () => {
    const good = await recordedJobs([buyers[10]!, buyers[11]!], 1);
    const bad = {
      projectId: p.projectId,
      batchId: crypto.randomUUID(),
      names: ["Purchased"],
      eventIds: ["not-a-uuid"],
    };
    await expect(runListsSteps({ db: getDb() }, [good[0]!, bad, good[1]!])).rejects.toThrow();
    expect(await markers(good.map((j) => j.batchId))).toBe(2);
    expect(await markers([bad.batchId])).toBe(0);
    expect(await members()).toEqual([...buyers].sort());
  });

  it("groups by project and keeps each group under the event cap", () => {
    const job = (projectId: string, n: number) => ({
      projectId,
      batchId: crypto.randomUUID(),
      names: ["x"],
      eventIds: Array.from({ length: n }, () => crypto.randomUUID()),
    });
    const groups = mergedGroups([job("a", 3000), job("b", 10), job("a", 3000), job("a", 100), job("b", 10)]);
    expect(groups.map((g) => g.map((j) => `${j.projectId}${j.eventIds.length}`))).toEqual([
      ["a3000"],
      ["a3000", "a100"],
      ["b10", "b10"],
    ]);
    expect(
      groups.every((g) => g.length === 1 || g.reduce((n, j) => n + j.eventIds.length, 0) <= MERGED_STEP_EVENTS),
    ).toBe(true);
  });
});
