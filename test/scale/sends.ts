import type postgres from "postgres";
import type { SmtpSink } from "../../scripts/test/smtp-sink";

/*
 * Messages in the scale load: the load's journey given steps (a send and an update, so every Purchased
 * walks two steps and mails its buyer), and a broadcast to the Buyers list due while the load runs. What
 * the verifier then holds the database and the SMTP sink to: every entry walked each step once, every
 * message final and sent, each arrived once with its own Message-ID, and the broadcast done.
 */

async function call(base: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { id?: string; [k: string]: unknown };
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Gives the project an SMTP provider (the sink on `sinkPort`), the journey its steps, and a broadcast to the
 * list at `sendAt`; the broadcast's id.
 */
export async function addSends(
  web: string,
  setup: { projectId: string; key: string; journeyId: string; listId: string },
  sinkPort: number,
  sendAt: Date,
): Promise<string> {
  const admin = `${web}/api/admin/projects/${setup.projectId}`;
  await call(admin, setup.key, "POST", "/providers", {
    channel: "email",
    kind: "smtp",
    name: "Sink",
    url: `smtp://127.0.0.1:${sinkPort}`,
    from: "Relay Scale <scale@relay.failover.test>",
  });
  // Transactional: no subscription group or cap stands between the load and its mail.
  const template = await call(admin, setup.key, "POST", "/templates", {
    name: "Receipt",
    channel: "email",
    transactional: true,
    subscription_group: null,
    subject: "Thanks {{ user.email }}",
    text: "Order {{ journey.order.seq }}",
  });
  await call(admin, setup.key, "PATCH", `/journeys/${setup.journeyId}`, {
    steps: [
      { key: "mail", kind: "send", template_id: template.id },
      { key: "mark", kind: "update", data: { receipted: true } },
    ],
  });
  const broadcast = await call(admin, setup.key, "POST", "/broadcasts", {
    name: "During the fault",
    template_id: template.id,
    list_id: setup.listId,
    send_at: sendAt.toISOString(),
  });
  return broadcast.id as string;
}

/** Waits until the journey's entries have all left and the broadcast is done (bounded). */
export async function waitSent(
  sql: postgres.Sql,
  projectId: string,
  ids: { journeyId: string; broadcastId: string },
  timeoutMs = 120_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [r] = await sql`select
        (select count(*)::int from journey_entries where project_id = ${projectId} and journey_id = ${ids.journeyId}
          and state <> 'exited') as walking,
        (select state from broadcasts where project_id = ${projectId} and id = ${ids.broadcastId}) as broadcast`.catch(
      () => [{ walking: -1, broadcast: "?" }],
    );
    if (r!.walking === 0 && r!.broadcast === "done") return;
    if (Date.now() > deadline) throw new Error(`messages not settled: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 250));
  }
}

/** What is wrong with the journey's steps and the messages, as sentences (empty when all is well). */
export async function verifySends(
  sql: postgres.Sql,
  projectId: string,
  ids: { journeyId: string; broadcastId: string },
  sink: SmtpSink,
  host: string,
): Promise<string[]> {
  const problems: string[] = [];
  const [steps] = await sql`select
      (select count(*)::int from journey_entries where project_id = ${projectId} and journey_id = ${ids.journeyId}) as entries,
      (select count(*)::int from (select entry_id, step_key from journey_entry_steps
        where project_id = ${projectId} and journey_id = ${ids.journeyId} group by 1, 2 having count(*) > 1) d) as twice,
      (select count(*)::int from journey_entry_steps where project_id = ${projectId} and journey_id = ${ids.journeyId}
        and step_key in ('mail', 'mark')) as walked`;
  if (!steps!.entries) problems.push("no journey entries");
  if (steps!.twice || steps!.walked !== 2 * steps!.entries)
    problems.push(`journey steps not once each: ${JSON.stringify(steps)}`);
  const messages = await sql`select m.id, m.state, m.reason, m.journey_entry_id, m.broadcast_id, u.email
    from messages m join users u on u.project_id = m.project_id and u.id = m.user_id
    where m.project_id = ${projectId} and (m.broadcast_id = ${ids.broadcastId} or m.journey_entry_id in
      (select id from journey_entries where project_id = ${projectId} and journey_id = ${ids.journeyId}))`;
  const fromJourney = messages.filter((m) => m.journey_entry_id);
  if (fromJourney.length !== steps!.entries)
    problems.push(`${fromJourney.length} journey messages for ${steps!.entries} entries`);
  const [b] =
    await sql`select state, recipients from broadcasts where project_id = ${projectId} and id = ${ids.broadcastId}`;
  const fromBroadcast = messages.filter((m) => m.broadcast_id);
  if (b!.state !== "done" || !b!.recipients || fromBroadcast.length !== b!.recipients)
    problems.push(`broadcast ${JSON.stringify(b)} with ${fromBroadcast.length} messages`);
  const notSent = messages.filter((m) => m.state !== "sent");
  if (notSent.length) problems.push(`not sent: ${JSON.stringify(notSent.slice(0, 5))}`);
  // Each message arrived once, to its user, with its own Message-ID.
  const copies = new Map<string, string[]>();
  for (const mail of sink.mails) copies.set(mail.messageId, [...(copies.get(mail.messageId) ?? []), mail.to[0]!]);
  for (const m of messages) {
    const got = copies.get(`<${m.id}@${host}>`) ?? [];
    if (got.length !== 1 || got[0] !== m.email)
      problems.push(`message ${m.id} to ${m.email} arrived ${got.length} times (${got.join(", ")})`);
  }
  return problems.slice(0, 20);
}
