import type { Socket } from "node:net";
import { SMTPServer, type SMTPServerSession } from "smtp-server";
import type { Db } from "@/db/client";
import { type AppContext, systemContext } from "@/lib/access/context";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { gatheredWrites } from "@/lib/db/gathered-writes";
import { type BounceTarget, readBounceAddress } from "@/lib/messages/bounce-address";
import { log } from "@/lib/observability/logger";
import { metrics } from "@/lib/observability/metrics";
import { recordFeedback } from "./record-feedback";
import type { FeedbackReport } from "./report";
import { reportsOfMail } from "./reports-of-mail";

export interface InboundSmtpOptions {
  host: string;
  port: number;
  domain: string;
  /** Bytes of one mail (INBOUND_SMTP_MAX_BYTES, default 2 MB: a DSN returns the original's headers or more). */
  maxBytes: number;
  /** Recipients of one mail (a report goes to one bounce address; a few allow for a digest). */
  maxRecipients: number;
  /** Connections at once from one address (INBOUND_SMTP_PEER_CONNECTIONS, default 10). */
  maxPerPeer: number;
  /** Connections at once in all (INBOUND_SMTP_MAX_CLIENTS, default 200). */
  maxClients: number;
  /** Milliseconds a mail's reports wait for others' to be recorded with them (INBOUND_SMTP_GATHER_MS, 10). */
  gatherMs: number;
}

/** The listener's settings, or null when INBOUND_SMTP_PORT (or BOUNCE_DOMAIN) is not set. */
export function inboundSmtpOptions(env = process.env): InboundSmtpOptions | null {
  if (!env.INBOUND_SMTP_PORT || !env.BOUNCE_DOMAIN) return null;
  return {
    host: env.INBOUND_SMTP_HOST || "127.0.0.1",
    port: Number(env.INBOUND_SMTP_PORT),
    domain: env.BOUNCE_DOMAIN,
    maxBytes: Number(env.INBOUND_SMTP_MAX_BYTES ?? 2 * 1024 * 1024),
    maxRecipients: 10,
    maxPerPeer: Number(env.INBOUND_SMTP_PEER_CONNECTIONS ?? 10),
    maxClients: Number(env.INBOUND_SMTP_MAX_CLIENTS ?? 200),
    gatherMs: Number(env.INBOUND_SMTP_GATHER_MS ?? 10),
  };
}

const refusal = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/**
 * The inbound SMTP listener for bounces and complaints: mail only for `b-<token>@BOUNCE_DOMAIN` whose
 * token is intact (550 otherwise), bounded in size, recipients and connections per peer. A mail is
 * answered 250 only after what it reports is committed, so an MTA whose delivery was cut off (a worker
 * killed mid-record) sends it again, and the report's dedupe key records it once. Mails arriving together
 * are recorded together, one transaction a project (gatheredWrites); a project's failed write answers its
 * mails 451.
 */
export async function startInboundSmtp(ctx: AppContext<Db>, opts: InboundSmtpOptions) {
  const perPeer = new Map<string, number>();
  const counted = new Set<string>();
  const server = new SMTPServer({
    name: opts.domain,
    banner: "Relay bounce and complaint intake",
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    size: opts.maxBytes,
    maxClients: opts.maxClients,
    socketTimeout: 30_000,
    closeTimeout: 5_000,
    onConnect(session, callback) {
      const peer = session.remoteAddress;
      const n = perPeer.get(peer) ?? 0;
      if (n >= opts.maxPerPeer) return callback(refusal(421, "Too many connections from your address, try later"));
      perPeer.set(peer, n + 1);
      counted.add(session.id);
      callback();
    },
    onClose(session) {
      if (!counted.delete(session.id)) return;
      const n = (perPeer.get(session.remoteAddress) ?? 1) - 1;
      if (n <= 0) perPeer.delete(session.remoteAddress);
      else perPeer.set(session.remoteAddress, n);
    },
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= opts.maxRecipients)
        return callback(refusal(452, "4.5.3 Too many recipients"));
      if (!readBounceAddress(address.address, opts.domain)) return callback(refusal(550, "5.1.1 No such mailbox here"));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded)
          return callback(refusal(552, "5.3.4 Message too big"));
        void record(session, Buffer.concat(chunks)).then(
          () => callback(),
          (err: unknown) => {
            log.error({ err }, "recording an inbound report failed; the sender will retry");
            callback(refusal(451, "4.3.0 Try again later"));
          },
        );
      });
    },
  });
  const gathered = gatheredWrites<Map<string, FeedbackReport[]>, unknown>({
    ms: opts.gatherMs,
    max: 200,
    parallel: 4,
    write: async (mails) => {
      const byProject = new Map<string, { mail: number; reports: FeedbackReport[] }[]>();
      for (const [mail, reports] of mails.entries())
        for (const [projectId, list] of reports)
          byProject.set(projectId, [...(byProject.get(projectId) ?? []), { mail, reports: list }]);
      const failed: unknown[] = mails.map(() => null);
      for (const [projectId, parts] of byProject) {
        const project = systemContext(ctx.db, projectId);
        try {
          await recordFeedback(project, { reports: parts.flatMap((p) => p.reports) });
        } catch (err) {
          // Refused for what a mail said rather than for the database being away: each mail alone, so
          // one such mail is answered 451 by itself and never takes the others of its batch with it.
          if (parts.length === 1 || isDatabaseUnavailable(err)) for (const p of parts) failed[p.mail] ??= err;
          else
            for (const p of parts)
              await recordFeedback(project, { reports: p.reports }).catch((alone: unknown) => {
                failed[p.mail] ??= alone;
              });
        }
      }
      return failed;
    },
  });
  const record = async (session: SMTPServerSession, raw: Buffer) => {
    const to = session.envelope.rcptTo.flatMap((r): BounceTarget[] => {
      const t = readBounceAddress(r.address, opts.domain);
      return t ? [t] : [];
    });
    metrics.inboundMail.inc();
    const reports = await reportsOfMail({ raw, to });
    if (!reports.size) return;
    const err = await gathered(reports);
    if (err) throw err;
  };
  server.on("error", (err) => log.warn({ err }, "inbound SMTP connection error"));
  // Each reply is one whole write: with Nagle on, a reply after an unacknowledged one waited for the
  // peer's delayed ACK (about 40 ms a command).
  server.server.on("connection", (socket: Socket) => socket.setNoDelay(true));
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.server.address() as { port: number }).port;
  log.info({ host: opts.host, port, domain: opts.domain }, "inbound SMTP listening for bounces and complaints");
  return {
    port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
