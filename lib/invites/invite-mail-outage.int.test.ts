import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../../db/schema";
import type { Db } from "../../db/client";
import { MailCapture, linksIn } from "../../e2e/support/mailbox";
import { createApiKey } from "../access/api-keys";
import { createProjectWithOwner } from "../projects/create-project";
import { createTestDatabase } from "../../scripts/test/database";
import { freePort, startNextServer } from "../../scripts/test/next-server";
import { startWorker, waitFor, type TestWorker } from "../../scripts/test/worker";

/*
 * Mail that cannot be lost, on a database, server and worker of its own, with a real SMTP server (the e2e
 * capture server, parsed with mailparser) that is first absent, then refusing, then up. The web process
 * runs as production without SMTP_URL (so it must say so, and sign-in must say mail is not configured);
 * only the worker sends invitation mail, to the capture server's port. Retry delays are shrunk to 1-2 s.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let server: Awaited<ReturnType<typeof startNextServer>>;
let worker: TestWorker;
let sql: postgres.Sql;
let projectId: string;
let key: string;
let smtpPortNumber: number;
let mailbox: MailCapture | undefined;

/** A loaded CI machine can take longer than the default 5 s to open a connection. */
const SLOW_MACHINE = { DATABASE_CONNECT_TIMEOUT: "30" };
const RETRY = { MAIL_RETRY_DELAY_SECONDS: "1", MAIL_RETRY_DELAY_MAX_SECONDS: "2" };

beforeAll(async () => {
  database = await createTestDatabase("relay_mail");
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  const db = drizzle(sql, { schema, casing: "snake_case" }) as unknown as Db;
  const { project } = await createProjectWithOwner(
    { db },
    { orgName: "mail", projectName: "Mail outage", ownerEmail: `o-${crypto.randomUUID()}@example.com` },
  );
  projectId = project.id;
  key = (
    await createApiKey(
      { db },
      { projectId, name: "admin", role: "admin", rateLimitPerSecond: 1000, rateLimitBurst: 1000 },
    )
  ).secret;
  smtpPortNumber = await freePort();
  server = await startNextServer({
    DATABASE_URL: database.url,
    SMTP_URL: "",
    RELAY_TEST_OUTBOX: "0",
    AUTH_URL: "https://relay.example.test",
    ...SLOW_MACHINE,
    ...RETRY,
  });
  worker = await startWorker(database.url, {
    NODE_ENV: "production",
    SMTP_URL: `smtp://127.0.0.1:${smtpPortNumber}`,
    RELAY_TEST_OUTBOX: "0",
    WORKER_PORT: "0",
    ...SLOW_MACHINE,
    ...RETRY,
  });
}, 400_000);

afterAll(async () => {
  await worker?.stop();
  await server?.stop();
  await mailbox?.close();
  await sql?.end({ timeout: 2 });
  await database?.drop();
});

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}/api/admin/projects/${projectId}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));
const listed = async (id: string) => (await call("GET", "/invites")).body.data.find((i: { id: string }) => i.id === id);

describe("production without SMTP_URL", () => {
  it("says so at start, and sign-in answers a clear 'mail is not configured' page", async () => {
    await waitFor(async () => /SMTP_URL is not set/.test(server.output()), 10_000, "the start-up line");
    const page = await fetch(`${server.url}/signin`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/mail is not configured/);
  });
});

describe("an invitation made while SMTP is down", () => {
  it("is 201, retries with the error visible, and its mail arrives once the server is back", async () => {
    const email = `late-${crypto.randomUUID()}@example.com`;
    const res = await call("POST", "/invites", { email, role: "support" });
    expect(res.status).toBe(201);
    expect(res.body.delivery).toBe("queued");

    // Absent: connection refused, recorded on the invitation, still queued (retrying).
    const absent = await waitFor(
      async () => {
        const row = await listed(res.body.id);
        return row?.delivery_error && row;
      },
      20_000,
      "a failed attempt",
    );
    expect(absent.delivery).toBe("queued");
    expect(absent.delivery_error).toMatch(/ECONNREFUSED|connect/i);

    // Refusing: the server answers 451 to every message.
    mailbox = new MailCapture();
    mailbox.refusing = true;
    await mailbox.listen(smtpPortNumber);
    const refused = await waitFor(
      async () => {
        const row = await listed(res.body.id);
        // The reply code, not a refused connection's message: "connect ECONNREFUSED 127.0.0.1:34512" holds "451" too.
        const error: string = row?.delivery_error ?? "";
        return !/ECONNREFUSED/.test(error) && /\b451\b/.test(error) && row;
      },
      20_000,
      "a refused attempt",
    );
    expect(refused.delivery).toBe("queued");
    expect(refused.delivery_attempts).toBeGreaterThanOrEqual(2);
    expect(mailbox.mails).toHaveLength(0);

    // Back: the mail arrives, once, with the configured origin's link, and the list says sent.
    mailbox.refusing = false;
    const mail = await mailbox.waitFor(email, { subject: /invited/, timeoutMs: 20_000 });
    expect(mail.subject).toBe("You're invited to Mail outage on Relay");
    expect(linksIn(mail)).toEqual(["https://relay.example.test/invites"]);
    expect(mail.html).toContain("View invitation");
    const sent = await waitFor(
      async () => {
        const row = await listed(res.body.id);
        return row?.delivery === "sent" && row;
      },
      10_000,
      "delivery: sent",
    );
    expect(sent.delivery_error).toBeNull();
    // The signal that nothing more will send it: no job for this invitation's mail is left to run.
    await waitFor(
      async () =>
        (
          await sql`select count(*)::int as n from pgboss.job where name = 'mail.invite' and data->>'inviteId' = ${res.body.id}
            and state in ('created', 'retry', 'active')`
        )[0]!.n === 0,
      20_000,
      "the mail's jobs settled",
    );
    expect(mailbox.mails.filter((m) => m.envelopeTo.includes(email))).toHaveLength(1);
  });

  it("marks the mail failed after its last attempt, and a resend delivers it", async () => {
    const email = `given-up-${crypto.randomUUID()}@example.com`;
    mailbox!.refusing = true;
    const res = await call("POST", "/invites", { email, role: "support" });
    expect(res.status).toBe(201);
    await waitFor(async () => (await listed(res.body.id))?.delivery_error, 20_000, "a refused attempt");
    // Pretend the day of retries has passed: the next refused attempt is past the retry limit.
    await sql`update project_invites set delivery_attempts = 1000 where id = ${res.body.id}`;
    const failed = await waitFor(
      async () => {
        const row = await listed(res.body.id);
        return row?.delivery === "failed" && row;
      },
      20_000,
      "delivery: failed",
    );
    expect(failed.delivery_error).toMatch(/451/);

    mailbox!.refusing = false;
    const since = Date.now();
    const again = await call("POST", `/invites/${res.body.id}/resend`);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ delivery: "queued", delivery_attempts: 0, delivery_error: null });
    await mailbox!.waitFor(email, { since, timeoutMs: 20_000 });
    await waitFor(async () => (await listed(res.body.id))?.delivery === "sent", 10_000, "delivery: sent after resend");
  });
});
