import { crc32, deflateSync } from "node:zlib";
import { runId, sessionPages } from "./support/console";
import { cliCreateProject, expect, test } from "./support/fixtures";

/*
 * The visual block editor (GrapesJS with grapesjs-mjml) over a template's MJML: blocks added by a click,
 * text typed in place, an image picked from the project's documents, a snippet as a block; saved through
 * the template API, which compiles the MJML; the code view shows the same MJML with its Liquid intact;
 * an MJML the API refuses shows its error in the visual editor. Screenshots at 1280 and 375 px.
 */
const run = runId();
const OWNER = `visual-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
const s = sessionPages();

/** A solid-colour PNG of w×h (the document store sniffs real PNG bytes). */
function png(w: number, h: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = Buffer.alloc(1 + w * 3);
  for (let x = 0; x < w; x++) row.set([r, g, b], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const SOURCE = `<mjml>
  <mj-body>
    <mj-section>
      <mj-column>
        <mj-text font-size="18px">Hello {{ user.data.first_name | default: 'friend' }}{% if user.data.visits > 1 %}, welcome back{% endif %}</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

test.beforeAll(async ({ baseURL }) => {
  seeded = cliCreateProject(`Visual ${run}`, "Mail", OWNER);
  const auth = { authorization: `Bearer ${seeded.apiKey}` };
  const user = await fetch(`${baseURL}/api/client/projects/${seeded.projectId}/users`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({
      identifier: [{ external_id: "ada" }],
      email: `ada-${run}@lovelace.test`,
      data: { first_name: "Ada", visits: 3 },
    }),
  });
  expect(user.status).toBeLessThan(300);
});
test.afterEach(() => s.closeAll());

test("a mail built in the visual editor is saved as MJML the API compiles", async ({ browser, signIn }) => {
  const page = await s.pageAs(browser, OWNER, signIn);
  const admin = (path: string) => `/api/admin/projects/${seeded.projectId}${path}`;
  // What the project has to build with: a snippet and an image among its documents.
  const snippet = await page.request.post(admin("/snippets"), {
    data: { name: "footer", body: "<p>Acme Inc · 1 Main Street</p>" },
  });
  expect(snippet.status(), await snippet.text()).toBe(201);
  const doc = await page.request.post(admin("/documents"), {
    multipart: { file: { name: "banner.png", mimeType: "image/png", buffer: png(560, 120, [79, 70, 229]) } },
  });
  expect(doc.status(), await doc.text()).toBe(201);
  const banner = (await doc.json()) as { url: string };
  const created = await page.request.post(admin("/templates"), {
    data: { name: "Welcome", channel: "email", transactional: true, format: "mjml", subject: "Welcome", html: SOURCE },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).id as string;

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/projects/${seeded.projectId}/templates/${id}`);
  await expect(page.getByRole("heading", { name: "Welcome" })).toBeVisible({ timeout: 60_000 });
  await page.getByRole("group", { name: "MJML editor" }).getByRole("button", { name: "Visual" }).click();
  const canvas = page.frameLocator('iframe[title="Mail canvas"]');
  await expect(canvas.getByText("Hello {{ user.data.first_name | default: 'friend' }}")).toBeVisible({
    timeout: 60_000,
  });
  // Opening the visual editor alone changes nothing: the form holds the source as it was typed.
  await expect(page.getByText("Unsaved changes")).toHaveCount(0);
  const blocks = page.getByRole("group", { name: "Blocks" });

  // A text block, clicked in (a section of its own at the end), its text typed in place with Liquid in it.
  await blocks.getByRole("button", { name: "Text", exact: true }).click();
  const fresh = canvas.getByText("Write something here.");
  await expect(fresh).toBeVisible();
  await fresh.dblclick();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("Thanks for joining, {{ user.data.first_name }}!");
  await expect(canvas.getByText("Thanks for joining, {{ user.data.first_name }}!")).toBeVisible();

  // An image block opens the project's documents; the one picked is the image's source.
  await blocks.getByRole("button", { name: "Image", exact: true }).click();
  const picker = page.getByRole("dialog", { name: "Choose an image" });
  await picker.getByRole("button", { name: "Use banner.png" }).click();
  await expect(picker).toHaveCount(0);
  await expect(canvas.locator(`img[src="${banner.url}"]`)).toBeVisible();
  const settings = page.getByRole("complementary", { name: "Block settings" });
  await expect(settings).toContainText("banner.png");

  // The project's snippet is a block of its own: its render tag, shown by name.
  await blocks.getByRole("button", { name: "footer", exact: true }).click();
  await expect(canvas.getByText("Snippet · footer")).toBeVisible();
  // A second image, uploaded from the picker: picked as soon as the server has stored it.
  await blocks.getByRole("button", { name: "Image", exact: true }).click();
  await picker
    .getByLabel("Upload an image")
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png(160, 48, [16, 185, 129]) });
  await expect(picker).toHaveCount(0);
  await expect(canvas.locator('img[src$="/logo.png"]')).toBeVisible();
  await page.screenshot({ path: "test-results/template-visual-desktop.png", fullPage: true });

  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved and compiled.")).toBeVisible();

  // The API holds MJML (the Liquid as typed, the > of the condition included) and renders it compiled.
  const got = await page.request.get(admin(`/templates/${id}`));
  const saved = (await got.json()) as { html: string; format: string; version: number };
  expect(saved).toMatchObject({ format: "mjml", version: 2 });
  expect(saved.html).toContain("Hello {{ user.data.first_name | default: 'friend' }}{% if user.data.visits > 1 %}");
  expect(saved.html).toContain("Thanks for joining, {{ user.data.first_name }}!");
  expect(saved.html).toContain(`src="${banner.url}"`);
  expect(saved.html).toContain("<mj-text>{% render 'footer' %}</mj-text>");
  expect(saved.html).toMatch(/<mj-image [^>]*src="[^"]+\/logo\.png"[^>]*>/);
  expect(saved.html.split("\n").length).toBeGreaterThan(10);
  const rendered = await page.request.post(admin(`/templates/${id}/preview`), {
    data: { identifier: [{ external_id: "ada" }] },
  });
  expect(rendered.status(), await rendered.text()).toBe(200);
  const mail = (await rendered.json()) as { html: string };
  expect(mail.html).toContain("Hello Ada, welcome back");
  expect(mail.html).toContain("Thanks for joining, Ada!");
  expect(mail.html).toContain(`src="${banner.url}"`);
  expect(mail.html).toContain("<p>Acme Inc · 1 Main Street</p>");
  expect(mail.html).toContain("@media only screen");
  expect(mail.html).not.toContain("<mj-");

  // The live preview below shows the same compiled mail as the user.
  const preview = page.getByRole("region", { name: "Live preview" });
  await preview.getByLabel("Preview as user").fill("ada");
  await preview.getByLabel("Preview as user").press("Enter");
  await expect(
    preview.frameLocator('iframe[title="Rendered HTML"]').getByText("Thanks for joining, Ada!"),
  ).toBeVisible();

  // An engineer opens the same mail as code.
  await page.getByRole("group", { name: "MJML editor" }).getByRole("button", { name: "Code" }).click();
  const code = page.getByRole("textbox", { name: "MJML", exact: true });
  await expect(code).toContainText("Thanks for joining, {{ user.data.first_name }}!");
  await expect(code).toContainText("{% render 'footer' %}");

  // A size the canvas could not draw is refused in the panel, before anything is written.
  await page.getByRole("group", { name: "MJML editor" }).getByRole("button", { name: "Visual" }).click();
  await canvas.getByText("Thanks for joining, {{ user.data.first_name }}!").click();
  await expect(settings).toContainText("Text");
  await settings.getByLabel("Size").fill("huge");
  await settings.getByLabel("Size").press("Enter");
  await expect(settings.getByText("A size in px or %, like 13px.")).toBeVisible();
  await expect(page.getByText("Unsaved changes")).toHaveCount(0);
  await settings.getByLabel("Size").fill("16px");
  await settings.getByLabel("Size").press("Enter");
  await expect(settings.getByText("A size in px or %")).toHaveCount(0);

  // An MJML the API refuses (a colour MJML does not know): its error, with the line, in the visual editor.
  await settings.getByLabel("Colour").fill("notacolour");
  await settings.getByLabel("Colour").press("Enter");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  const refusal = page.getByRole("alert").filter({ hasText: "The MJML was not saved" });
  await expect(refusal).toContainText(/line \d+: Attribute color has invalid value: notacolour/);
  await page.screenshot({ path: "test-results/template-visual-error.png", fullPage: true });
  expect(((await (await page.request.get(admin(`/templates/${id}`))).json()) as { version: number }).version).toBe(2);

  await settings.getByLabel("Colour").fill("#1f2937");
  await settings.getByLabel("Colour").press("Enter");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved and compiled.")).toBeVisible();
  await expect(refusal).toHaveCount(0);
  const fixed = (await (await page.request.get(admin(`/templates/${id}`))).json()) as { html: string; version: number };
  expect(fixed.version).toBe(3);
  const attrs = /<mj-text ([^>]*)>Thanks for joining/.exec(fixed.html)?.[1] ?? "";
  expect(attrs).toContain('font-size="16px"');
  expect(attrs).toContain('color="#1f2937"');

  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole("group", { name: "Canvas width" }).getByRole("button", { name: "Mobile" }).click();
  await expect(canvas.getByText("Thanks for joining, {{ user.data.first_name }}!")).toBeVisible();
  await preview.getByRole("button", { name: /Mobile 375px/ }).click();
  await expect(
    preview.frameLocator('iframe[title="Rendered HTML"]').getByText("Thanks for joining, Ada!"),
  ).toBeVisible();
  await page.screenshot({ path: "test-results/template-visual-mobile.png", fullPage: true });
});
