import { describe, expect, it, beforeAll } from "vitest";
import { api, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("journey-edit");
});

const patch = (id: string, body: unknown, key = p.keys.editor) =>
  api("PATCH", p.admin(`/journeys/${id}`), { key, body });

describe("PATCH /journeys/{id}", () => {
  it("updates settings, keeps named entrances in place, adds new ones and removes the rest", async () => {
    const j = (
      await api("POST", p.admin("/journeys"), {
        key: p.keys.editor,
        body: {
          name: "Onboarding",
          entrances: [
            { kind: "event", event_name: "Signed Up", data_key: "signup" },
            { kind: "event", event_name: "Invited" },
          ],
        },
      })
    ).body;
    const [first, second] = j.entrances;
    const s = (
      await api("POST", p.admin("/schedules"), {
        key: p.keys.editor,
        body: { name: "trial_edit", type: "single", offsets: [{ offset: "3 days", direction: "before" }] },
      })
    ).body;
    const scheduleId: string = s.id;
    const offsetId: string = s.offsets.find((o: { direction: string }) => o.direction === "before").id;
    const r = await patch(j.id, {
      name: "Onboarding v2",
      allow_multiple_entries: true,
      entrances: [
        {
          id: first.id,
          kind: "event",
          event_name: "Signed Up",
          condition: [{ path: "plan", op: "eq", value: "pro" }],
          data_key: "signup",
        },
        { kind: "scheduled", schedule_id: scheduleId, schedule_offset_id: offsetId, data_key: "trial" },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: "Onboarding v2", allow_multiple_entries: true, allow_concurrent_runs: false });
    expect(r.body.entrances).toHaveLength(2);
    const kept = r.body.entrances.find((e: any) => e.id === first.id);
    expect(kept).toMatchObject({ kind: "event", condition: [{ path: "plan", op: "eq", value: "pro" }] });
    expect(r.body.entrances.find((e: any) => e.kind === "scheduled")).toMatchObject({
      schedule_id: scheduleId,
      schedule_offset_id: offsetId,
      data_key: "trial",
      event_name: null,
    });
    expect(r.body.entrances.some((e: any) => e.id === second.id)).toBe(false);
    expect(await sql`select 1 from journey_entrances where id = ${second.id}`).toHaveLength(0);
  });

  it("refuses support, a foreign entrance id, bad data keys and a missing schedule or offset without writing", async () => {
    const j = (
      await api("POST", p.admin("/journeys"), {
        key: p.keys.editor,
        body: { name: "Solo", entrances: [{ kind: "event", event_name: "Ping" }] },
      })
    ).body;
    expect((await patch(j.id, { name: "x" }, p.keys.support)).status).toBe(403);
    const stranger = await patch(j.id, { entrances: [{ id: crypto.randomUUID(), kind: "event", event_name: "Ping" }] });
    expect(stranger.status).toBe(400);
    expect(stranger.body.errors[0].path).toBe("entrances[0].id");
    expect((await patch(j.id, { entrances: [{ kind: "event", event_name: "Ping", data_key: "9bad" }] })).status).toBe(
      400,
    );
    expect((await patch(crypto.randomUUID(), { name: "x" })).status).toBe(404);
    // A scheduled entrance naming a schedule or offset that does not exist is refused as create refuses it.
    const s = (
      await api("POST", p.admin("/schedules"), { key: p.keys.editor, body: { name: "solo_edit", type: "single" } })
    ).body;
    const missingSchedule = await patch(j.id, {
      name: "changed",
      entrances: [
        { kind: "scheduled", schedule_id: crypto.randomUUID(), schedule_offset_id: s.offsets[0].id, data_key: "t" },
      ],
    });
    expect(missingSchedule.status).toBe(404);
    expect(missingSchedule.body.errors[0].path).toBe("entrances[0].schedule_id");
    const missingOffset = await patch(j.id, {
      entrances: [{ kind: "scheduled", schedule_id: s.id, schedule_offset_id: crypto.randomUUID(), data_key: "t" }],
    });
    expect(missingOffset.status).toBe(404);
    expect(missingOffset.body.errors[0].path).toBe("entrances[0].schedule_offset_id");
    const after = (await api("GET", p.admin(`/journeys/${j.id}`), { key: p.keys.support })).body;
    expect(after).toMatchObject({ name: "Solo", entrances: [{ id: j.entrances[0].id, event_name: "Ping" }] });
  });
});
