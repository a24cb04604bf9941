import { describe, expect, it } from "vitest";
import { api, sql } from "@/scripts/test/helpers";
import { waitFor } from "@/scripts/test/worker";
import { finalRow, newUser, p, queue, sink, template, useMessagesProject } from "@/test/fixtures/messages";

/*
 * Versions: every save is one, a restore is a new one, a message records the version it rendered, and a
 * broadcast renders the versions current at its start whatever is edited while it sends.
 */
useMessagesProject("relay_authoring_versions");

describe("versions", () => {
  it("every save is a version; restore saves an old one again as a new version", async () => {
    const id = await template({ subject: "one", text: "t1", tags: ["onboarding", "onboarding", "q4"] });
    for (const subject of ["two", "three"]) {
      const r = await api("PATCH", p.admin(`/templates/${id}`), { key: p.keys.editor, body: { subject } });
      expect(r.status).toBe(200);
    }
    const list = await api("GET", p.admin(`/templates/${id}/versions?limit=2`), { key: p.keys.support });
    expect(list.status).toBe(200);
    expect(list.body.data.map((v: { number: number }) => v.number)).toEqual([3, 2]);
    expect(list.body.data[0].content.subject).toBe("three");
    expect(list.body.next_cursor).not.toBeNull();
    const rest = await api("GET", p.admin(`/templates/${id}/versions?cursor=${list.body.next_cursor}`), {
      key: p.keys.support,
    });
    expect(rest.body.data.map((v: { number: number }) => v.number)).toEqual([1]);
    expect(rest.body.data[0].actor).toMatch(/^key:/);
    const restored = await api("POST", p.admin(`/templates/${id}/versions/1/restore`), { key: p.keys.editor });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body).toMatchObject({ subject: "one", version: 4, tags: ["onboarding", "q4"] });
    expect((await api("POST", p.admin(`/templates/${id}/versions/9/restore`), { key: p.keys.editor })).status).toBe(
      404,
    );
    expect((await api("POST", p.admin(`/templates/${id}/versions/1/restore`), { key: p.keys.support })).status).toBe(
      403,
    );
    // Tags filter the list.
    const tagged = await api("GET", p.admin("/templates?tag=q4"), { key: p.keys.support });
    expect(tagged.body.data.map((t: { id: string }) => t.id)).toEqual([id]);
  });

  it("a message records the template version it rendered (GET /messages/{id})", async () => {
    const id = await template({ subject: "v1 subject", text: "x" });
    const u = await newUser();
    const m = await queue({ templateId: id, userId: u.id });
    await finalRow(m.id);
    await api("PATCH", p.admin(`/templates/${id}`), { key: p.keys.editor, body: { subject: "v2 subject" } });
    const got = await api("GET", p.admin(`/messages/${m.id}`), { key: p.keys.support });
    expect(got.body.template).toMatchObject({ id, version: 1 });
    expect(got.body.template.version_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.body.content.subject).toBe("v1 subject");
  });

  it("a template and a snippet edited mid-broadcast leave every recipient with the versions it started with", async () => {
    const snip = await api("POST", p.admin("/snippets"), { key: p.keys.editor, body: { name: "sig", body: "sig-v1" } });
    expect(snip.status).toBe(201);
    const users = await Promise.all(Array.from({ length: 5 }, () => newUser()));
    const list = await api("POST", p.admin("/lists"), {
      key: p.keys.editor,
      body: { name: `l-${crypto.randomUUID().slice(0, 8)}`, kind: "static", tags: ["spring"] },
    });
    for (const u of users)
      await sql`insert into list_members (project_id, list_id, user_id) values (${p.projectId}, ${list.body.id}, ${u.id})`;
    const id = await template({ subject: "Started v1", text: "body v1 {% render 'sig' %}" });
    const b = await api("POST", p.admin("/broadcasts"), {
      key: p.keys.editor,
      // One a second: the edits below land while most recipients are still queued.
      body: { name: "pinned", template_id: id, list_id: list.body.id, rate_per_second: 1, tags: ["spring"] },
    });
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    await waitFor(async () => sink.mails.some((m) => m.subject === "Started v1"), 30_000, "a first mail");
    const edit = await api("PATCH", p.admin(`/templates/${id}`), {
      key: p.keys.editor,
      body: { subject: "Edited v2", text: "body v2" },
    });
    expect(edit.status).toBe(200);
    expect(
      (await api("PATCH", p.admin(`/snippets/${snip.body.id}`), { key: p.keys.editor, body: { body: "sig-v2" } }))
        .status,
    ).toBe(200);
    const queuedAtEdit = (
      await sql`select count(*)::int as n from messages where broadcast_id = ${b.body.id} and state = 'queued'`
    )[0]!.n;
    expect(queuedAtEdit).toBeGreaterThan(0);
    await waitFor(
      async () =>
        (await api("GET", p.admin(`/broadcasts/${b.body.id}`), { key: p.keys.support })).body.state === "done",
      60_000,
      "broadcast done",
    );
    for (const u of users) {
      const mails = sink.to(u.email!);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe("Started v1");
      expect(mails[0]!.text).toBe("body v1 sig-v1");
    }
    const versions = await sql`select distinct v.number from messages m join authoring_versions v
      on v.project_id = m.project_id and v.id = m.template_version_id where m.broadcast_id = ${b.body.id}`;
    expect(versions.map((v) => v.number)).toEqual([1]);
    // Tags on broadcasts and lists filter their lists.
    const bs = await api("GET", p.admin("/broadcasts?tag=spring"), { key: p.keys.support });
    expect(bs.body.data.map((x: { id: string }) => x.id)).toEqual([b.body.id]);
    const ls = await api("GET", p.admin("/lists?tag=spring"), { key: p.keys.support });
    expect(ls.body.data.map((x: { id: string }) => x.id)).toEqual([list.body.id]);
  });
});
