import { describe, expect, it } from "vitest";
import { api, sql } from "@/scripts/test/helpers";
import { waitFor } from "@/scripts/test/worker";
import { finalRow, group, newUser, p, queue, sink, template, useMessagesProject } from "@/test/fixtures/messages";

/*
 * Authoring over HTTP: MJML compiled at save, CSS inlined, layouts and snippets, the generated text
 * part, versions (and a broadcast that keeps the versions it started with), tags. Mail is read from a
 * real SMTP sink, as a receiver gets it.
 */
useMessagesProject("relay_authoring");

const mailTo = (email: string) => waitFor(async () => sink.to(email)[0], 30_000, `mail to ${email}`);

async function sendTo(templateId: string, fields: Record<string, unknown> = {}) {
  const u = await newUser(fields);
  const m = await queue({ templateId, userId: u.id });
  expect((await finalRow(m.id)).state).toBe("sent");
  return { user: u, mail: await mailTo(u.email!), messageId: m.id };
}

const MJML = `<mjml>
  <mj-body>
    <mj-section>
      <mj-column><mj-text>Hello {{ user.data.first_name | default: 'friend' }}</mj-text></mj-column>
      <mj-column><mj-button href="https://acme.example/start">Start</mj-button></mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

describe("formats", () => {
  it("MJML with Liquid in it is compiled at save and rendered per user: media queries and the user's value", async () => {
    const id = await template({ format: "mjml", subject: "Hi", html: MJML, text: "plain" });
    const { mail } = await sendTo(id, { data: { first_name: "Ada" } });
    expect(mail.html).toContain("@media");
    expect(mail.html).toContain("Hello Ada");
    expect(mail.html).not.toContain("<mj-");
    // The stored source stays MJML: the build is apart.
    const t = await api("GET", p.admin(`/templates/${id}`), { key: p.keys.support });
    expect(t.body).toMatchObject({ format: "mjml", html: MJML, version: 1 });
  });

  it("invalid MJML is a 400 naming the part and line, and writes nothing", async () => {
    const before = (await sql`select count(*)::int as n from message_templates where project_id = ${p.projectId}`)[0]!
      .n;
    const res = await api("POST", p.admin("/templates"), {
      key: p.keys.editor,
      body: {
        name: "broken-mjml",
        channel: "email",
        subscription_group: group,
        format: "mjml",
        html: "<mjml>\n<mj-body>\n<mj-section>\n<mj-colum><mj-text>x</mj-text></mj-colum>\n</mj-section>\n</mj-body>\n</mjml>",
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ path: "html" });
    expect(res.body.errors[0].message).toMatch(/^line 4: .*mj-colum/);
    expect(res.body.detail).not.toContain("/work");
    expect((await sql`select count(*)::int as n from message_templates where project_id = ${p.projectId}`)[0]!.n).toBe(
      before,
    );
  });

  it("html: <style> rules are inlined onto the elements, Liquid intact", async () => {
    const id = await template({
      subject: "Styled",
      text: "x",
      html: `<style>.hi { color: #c00; }</style><p class="hi">Hi {{ user.data.first_name }}{% if user.data.vip %}!{% endif %}</p>`,
    });
    const { mail } = await sendTo(id, { data: { first_name: "Bo", vip: true } });
    expect(mail.html).toMatch(/<p class="hi" style="color: #c00;?">Hi Bo!<\/p>/);
  });

  it("an e-mail without a text part gets one from its html: words, tracked links as text [url], the unsubscribe link", async () => {
    const id = await template({
      subject: "No text",
      html: `<h1>Welcome {{ user.data.first_name }}</h1><p>Read <a href="https://acme.example/docs">the docs</a>.</p>`,
    });
    const { mail } = await sendTo(id, { data: { first_name: "Cy" } });
    expect(mail.text).toContain("Welcome Cy");
    expect(mail.text).toMatch(/the docs \[https:\/\/relay\.example\.test\/l\/[^\]\s]+\]/);
    expect(mail.text).toMatch(/Unsubscribe: https:\/\/relay\.example\.test\/u\/\S+/);
  });
});

describe("layouts and snippets", () => {
  const layout = (body: Record<string, unknown>) =>
    api("POST", p.admin("/layouts"), {
      key: p.keys.editor,
      body: { name: `l-${crypto.randomUUID().slice(0, 8)}`, ...body },
    });
  const snippet = (body: Record<string, unknown>) => api("POST", p.admin("/snippets"), { key: p.keys.editor, body });

  it("a layout wraps the content; an MJML layout and MJML template compile as one document", async () => {
    const html = await layout({ body: '<div class="frame">{{ content }}<p>Acme Inc.</p></div>' });
    expect(html.status, JSON.stringify(html.body)).toBe(201);
    expect(html.body).toMatchObject({ format: "html", version: 1 });
    const id = await template({
      subject: "L",
      text: "x",
      layout_id: html.body.id,
      html: "<p>Inside {{ user.data.first_name }}</p>",
    });
    const { mail } = await sendTo(id, { data: { first_name: "Di" } });
    expect(mail.html).toMatch(/<div class="frame"><p>Inside Di<\/p><p>Acme Inc\.<\/p><\/div>/);

    const mj = await layout({
      format: "mjml",
      body: "<mjml>\n<mj-body>\n{{ content }}\n<mj-section><mj-column><mj-text>Footer</mj-text></mj-column></mj-section>\n</mj-body>\n</mjml>",
    });
    expect(mj.status, JSON.stringify(mj.body)).toBe(201);
    const mid = await template({
      format: "mjml",
      subject: "M",
      text: "x",
      layout_id: mj.body.id,
      html: "<mj-section><mj-column><mj-text>Body {{ user.data.first_name }}</mj-text></mj-column></mj-section>",
    });
    const sent = await sendTo(mid, { data: { first_name: "Ed" } });
    expect(sent.mail.html).toContain("Body Ed");
    expect(sent.mail.html).toContain("Footer");
    // A layout of the other format is refused.
    const wrong = await api("POST", p.admin("/templates"), {
      key: p.keys.editor,
      body: {
        name: "wrong-layout",
        channel: "email",
        subscription_group: group,
        layout_id: mj.body.id,
        html: "<p>x</p>",
      },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].path).toBe("layout_id");
  });

  it("saving a layout builds its templates again, and is refused naming the one it would break", async () => {
    const l = await layout({ format: "mjml", body: "<mjml><mj-body>{{ content }}</mj-body></mjml>" });
    const name = `uses-${crypto.randomUUID().slice(0, 6)}`;
    const id = await template({
      name,
      format: "mjml",
      subject: "B",
      text: "x",
      layout_id: l.body.id,
      html: "<mj-section><mj-column><mj-text>v1</mj-text></mj-column></mj-section>",
    });
    const changed = await api("PATCH", p.admin(`/layouts/${l.body.id}`), {
      key: p.keys.editor,
      body: {
        body: "<mjml><mj-body><mj-wrapper>{{ content }}</mj-wrapper><mj-section><mj-column><mj-text>NEW FOOTER</mj-text></mj-column></mj-section></mj-body></mjml>",
      },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.version).toBe(2);
    expect((await sendTo(id)).mail.html).toContain("NEW FOOTER");
    // A body in which the template's sections cannot stand (mj-section inside mj-column) breaks it.
    const breaking = await api("PATCH", p.admin(`/layouts/${l.body.id}`), {
      key: p.keys.editor,
      body: { body: "<mjml><mj-body><mj-section><mj-column>{{ content }}</mj-column></mj-section></mj-body></mjml>" },
    });
    expect(breaking.status).toBe(400);
    expect(breaking.body.errors[0].message).toContain(`template "${name}"`);
    const kept = await api("GET", p.admin(`/layouts/${l.body.id}`), { key: p.keys.support });
    expect(kept.body.version).toBe(2);
  });

  it("the project's default layout wraps templates naming none", async () => {
    const l = await layout({ body: '<section id="default">{{ content }}</section>' });
    const set = await api("PATCH", `/api/admin/projects/${p.projectId}`, {
      key: p.keys.admin,
      body: { default_layout_id: l.body.id },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.default_layout_id).toBe(l.body.id);
    try {
      const id = await template({ subject: "D", text: "x", html: "<p>plain</p>" });
      expect((await sendTo(id)).mail.html).toContain('<section id="default"><p>plain</p></section>');
      const del = await api("DELETE", p.admin(`/layouts/${l.body.id}`), { key: p.keys.editor });
      expect(del.status).toBe(422);
    } finally {
      await api("PATCH", `/api/admin/projects/${p.projectId}`, {
        key: p.keys.admin,
        body: { default_layout_id: null },
      });
    }
  });

  it("snippets: {% render %} finds the project's snippets and nothing else; cycles and missing ones refused, named", async () => {
    const footer = await snippet({ name: "footer", body: "<p>Bye {{ who }}</p>{% render 'legal' %}" });
    expect(footer.status).toBe(400);
    expect(footer.body.errors[0].message).toContain('no snippet named "legal"');
    expect((await snippet({ name: "legal", body: "<small>Acme</small>" })).status).toBe(201);
    const f = await snippet({ name: "footer", body: "<p>Bye {{ who }}</p>{% render 'legal' %}" });
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    const id = await template({
      subject: "S",
      text: "Text {% render 'legal' %}",
      html: "<p>Hi</p>{% render 'footer', who: user.data.first_name %}",
    });
    const { mail } = await sendTo(id, { data: { first_name: "Fay" } });
    expect(mail.html).toContain("<p>Bye Fay</p><small>Acme</small>");
    expect(mail.text).toContain("Text <small>Acme</small>");
    // legal → footer → legal
    const legalId = (await api("GET", p.admin("/snippets"), { key: p.keys.support })).body.data.find(
      (s: { name: string }) => s.name === "legal",
    ).id;
    const cycle = await api("PATCH", p.admin(`/snippets/${legalId}`), {
      key: p.keys.editor,
      body: { body: "{% render 'footer' %}" },
    });
    expect(cycle.status).toBe(400);
    expect(cycle.body.errors[0].message).toMatch(/cycle: (legal → footer → legal|footer → legal → footer)/);
    for (const name of ["constructor", "__proto__", "../etc/passwd"]) {
      const r = await api("POST", p.admin("/templates"), {
        key: p.keys.editor,
        body: {
          name: `t-${crypto.randomUUID().slice(0, 6)}`,
          channel: "email",
          subscription_group: group,
          html: `{% render '${name}' %}`,
        },
      });
      expect(r.status, name).toBe(400);
    }
    const dynamic = await api("POST", p.admin("/templates"), {
      key: p.keys.editor,
      body: { name: "dyn", channel: "email", subscription_group: group, html: "{% render user.data.x %}" },
    });
    expect(dynamic.status).toBe(400);
    // Deleting a snippet something renders is refused, naming what would break.
    const del = await api("DELETE", p.admin(`/snippets/${legalId}`), { key: p.keys.editor });
    expect(del.status).toBe(400);
    expect(del.body.errors[0].message).toBe('no snippet named "legal" in this project (rendered by "footer")');
  });

  it("snippets nest at most five deep", async () => {
    const tag = crypto.randomUUID().slice(0, 6);
    expect((await snippet({ name: `d5-${tag}`, body: "end" })).status).toBe(201);
    for (let i = 4; i >= 1; i--)
      expect((await snippet({ name: `d${i}-${tag}`, body: `{% render 'd${i + 1}-${tag}' %}` })).status).toBe(201);
    expect((await snippet({ name: `d0-${tag}`, body: `{% render 'd1-${tag}' %}` })).status).toBe(400);
  });

  it("support reads layouts and snippets, and may not write them", async () => {
    expect((await api("GET", p.admin("/layouts"), { key: p.keys.support })).status).toBe(200);
    expect((await api("GET", p.admin("/snippets?limit=1"), { key: p.keys.support })).status).toBe(200);
    const denied = await api("POST", p.admin("/snippets"), { key: p.keys.support, body: { name: "nope", body: "x" } });
    expect(denied.status).toBe(403);
  });
});
