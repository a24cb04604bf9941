import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../../db/schema";
import type { Db } from "../../db/client";
import { systemContext } from "../access/context";
import { createProjectWithOwner } from "../projects/create-project";
import { createTemplate } from "../templates/create-template";
import { createTemplateBody } from "../templates/schemas";
import { startTestPostgres } from "../../scripts/test/embedded-pg";
import { TEST_AUTH_SECRET } from "../../scripts/test/next-server";
import { SmtpSink } from "../../scripts/test/smtp-sink";
import { startWorker, waitFor, type TestWorker } from "../../scripts/test/worker";
import { createBroadcast } from "./create-broadcast";
import { createBroadcastBody } from "./schemas";

/*
 * A broadcast across a database restart, on a PostgreSQL of this file's own (stopped and started here,
 * never the shared one): a real worker sends to a real SMTP sink while the database goes away and comes
 * back. Every recipient gets the mail once, every message ends `sent`, and the broadcast ends `done`.
 */
let pg: Awaited<ReturnType<typeof startTestPostgres>>;
let sql: postgres.Sql;
let db: Db;
let projectId: string;
let worker: TestWorker;
let sink: SmtpSink;
const N = 600;

beforeAll(async () => {
  process.env.AUTH_SECRET ??= TEST_AUTH_SECRET;
  pg = await startTestPostgres();
  sql = postgres(pg.url, { max: 2, onnotice: () => {} });
  db = drizzle(sql, { schema, casing: "snake_case" }) as unknown as Db;
  const { project } = await createProjectWithOwner(
    { db },
    { orgName: "bc-restart", projectName: "bc-restart", ownerEmail: `o-${crypto.randomUUID()}@example.com` },
  );
  projectId = project.id;
  sink = await new SmtpSink().listen();
  // Slow enough to acceptance that the broadcast is still going when the database stops.
  sink.acceptDelayMs = 20;
  worker = await startWorker(pg.url, {
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    MAIL_FROM: "Relay Test <news@relay.example.test>",
    AUTH_URL: "https://relay.example.test",
    MESSAGES_POLL_MS: "100",
    MESSAGES_RETRY_BASE_MS: "200",
    MESSAGES_MAX_IN_FLIGHT: "50",
  });
}, 180_000);

afterAll(async () => {
  await worker?.stop("SIGKILL");
  await sink?.close();
  await sql?.end({ timeout: 2 });
  await pg?.destroy();
});

describe("a broadcast across a database restart", () => {
  it("mails every recipient once, each message sent, the broadcast done", async () => {
    const ctx = systemContext(db, projectId);
    const [list] = await sql`insert into lists (project_id, name, kind) values (${projectId}, 'restart', 'static')
      returning id`;
    await sql`with u as (insert into users (project_id, email, data)
        select ${projectId}, 'br-' || g || '@example.com', '{}' from generate_series(1, ${N}) g returning project_id, id)
      insert into list_members (project_id, list_id, user_id) select project_id, ${list!.id}, id from u`;
    const template = await createTemplate(
      ctx,
      createTemplateBody.parse({
        name: "restart",
        channel: "email",
        transactional: true,
        subscription_group: null,
        subject: "Restart {{ user.email }}",
        text: "r",
      }),
    );
    const b = await createBroadcast(
      ctx,
      createBroadcastBody.parse({ name: "restart", template_id: template.id, list_id: list!.id }),
    );
    await waitFor(async () => sink.mails.length >= 100, 60_000, "the first mails accepted");
    await pg.stop();
    const duringStop = sink.mails.length;
    await new Promise((r) => setTimeout(r, 2_000));
    await pg.start();
    const view = async () =>
      (await sql`select state, recipients from broadcasts where project_id = ${projectId} and id = ${b.id}`)[0]!;
    await waitFor(
      async () => (await view().catch(() => ({ state: "?" }))).state === "done",
      90_000,
      "the broadcast done after the restart",
    );
    // The restart fell inside the broadcast, not after it.
    expect(duringStop).toBeLessThan(N);
    expect(await view()).toMatchObject({ state: "done", recipients: N });
    const states = await sql`select state, count(*)::int as n from messages
      where project_id = ${projectId} and broadcast_id = ${b.id} group by state`;
    expect(states.map((r) => [r.state, r.n])).toEqual([["sent", N]]);
    // Each recipient once: the outcomes of mails sent while the database was away were kept by the sender
    // and written when it came back, within their lease, so none came due and went out a second time.
    const copies = new Map<string, number>();
    for (const m of sink.mails) copies.set(m.to[0]!, (copies.get(m.to[0]!) ?? 0) + 1);
    expect(copies.size).toBe(N);
    expect([...copies].filter(([, n]) => n > 1)).toEqual([]);
  }, 180_000);
});
