import { describe, expect, it } from "vitest";
import { api, pipelineSettled, sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import { p, useProjectWithWorker } from "../../test/fixtures/project-with-worker";

/* Item 6 of the schedules issue end to end: an assignment fires in a real worker and the users enter a journey whose entrance is that schedule's offset. */

useProjectWithWorker("scheduled-journeys", { SCHEDULE_POLL_MS: "50" });

describe("scheduled journey entrances", () => {
  it("users whose assignment fires the entrance's offset enter the journey with the event data as context", async () => {
    const s = (
      await api("POST", p.admin("/schedules"), {
        key: p.keys.editor,
        body: { name: "trial_end", type: "single", offsets: [{ offset: "1 day", direction: "before" }] },
      })
    ).body;
    const before = s.offsets.find((o: any) => o.direction === "before");
    const j = await api("POST", p.admin("/journeys"), {
      key: p.keys.editor,
      body: {
        name: "Trial ending",
        entrances: [{ kind: "scheduled", schedule_id: s.id, schedule_offset_id: before.id, data_key: "trial" }],
      },
    });
    expect(j.status).toBe(201);
    const ids: Record<string, string> = {};
    for (const name of ["a", "b", "c"]) {
      ids[name] = (
        await api("POST", p.client("/users"), {
          key: p.keys.client,
          body: { identifier: [{ external_id: `sj-${name}` }] },
        })
      ).body.id;
    }
    // The `1 day before` firing is due two seconds from now; the default `0 minutes after` one a day later.
    const at = new Date(Date.now() + 24 * 3600_000 + 2000).toISOString();
    for (const name of ["a", "b"]) {
      const res = await api("POST", p.client("/users/scheduled"), {
        key: p.keys.client,
        body: {
          name: "trial_end",
          identifier: [{ external_id: `sj-${name}` }],
          scheduled_at: at,
          data: { plan: name },
        },
      });
      expect(res.status).toBe(201);
    }
    const rows = await waitFor(
      async () => {
        const r =
          await sql`select * from journey_entries where project_id = ${p.projectId} and journey_id = ${j.body.id} order by user_id`;
        return r.length >= 2 ? r : null;
      },
      30_000,
      "two journey entries",
    );
    expect(rows.map((r) => r.user_id).sort()).toEqual([ids.a, ids.b].sort());
    for (const r of rows) {
      expect(r.context.trial).toMatchObject({
        schedule_id: s.id,
        schedule_offset_id: before.id,
        offset: "1 day",
        plan: r.user_id === ids.a ? "a" : "b",
      });
    }
    // The signal that nothing more will enter: no firing due now is left unfired, and the pipeline's
    // intake and step jobs for the project are all done.
    await waitFor(
      async () =>
        (
          await sql`select count(*)::int as n from schedule_firings
            where project_id = ${p.projectId} and state = 'pending' and fire_at <= now()`
        )[0]!.n === 0 && (await pipelineSettled(p.projectId)),
      30_000,
      "due firings fired and the pipeline settled",
    );
    const [{ n }] =
      await sql`select count(*)::int as n from journey_entries where project_id = ${p.projectId} and journey_id = ${j.body.id}`;
    expect(n).toBe(2);
  });
});
