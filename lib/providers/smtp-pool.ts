import { Resolver } from "node:dns/promises";
import { connect, isIP, type Socket } from "node:net";
import nodemailer, { type Transporter } from "nodemailer";
import { log } from "@/lib/observability/logger";

/** SMTP connections per provider per process: pooled, each carrying any number of messages. */
export const SMTP_CONNECTIONS = Number(process.env.MESSAGES_SMTP_CONNECTIONS ?? 8);

/** How long one SMTP step may take before it counts as a transient failure. */
export const SMTP_TIMEOUT_MS = 15_000;

/** A pool unused this long is closed: a deleted provider's, or one whose project stopped sending. */
const IDLE_MS = 10 * 60_000;
/** Bounds on how long a pool trusts what its host's name resolved to (the record's TTL, within these). */
const MIN_TTL_MS = 5_000;
const MAX_TTL_MS = 60 * 60_000;

export interface PoolSpec {
  /** The pool's owner (a provider's id, or `deployment`): one pool each; a new `version` replaces it. */
  owner: string;
  version: string;
  smtpUrl: string;
  /** Connections in this pool: SMTP_CONNECTIONS unless the process's are shared between threads. */
  connections?: number;
  /** Where to connect: resolved (and checked) again for every new connection. */
  address: (host: string) => Promise<string>;
}

interface Pool {
  version: string;
  transport: Transporter;
  /** When the name's TTL ends: the pool is replaced, so connections are made to what it resolves to then. */
  expiresAt: number;
  usedAt: number;
}

const pools = new Map<string, Pool>();

function closePool(owner: string): void {
  const pool = pools.get(owner);
  if (!pool) return;
  pools.delete(owner);
  // nodemailer closes idle connections now and busy ones once their message is done.
  pool.transport.close();
}

/** Closes a provider's SMTP pool (after it was changed or deleted in this process). */
export function closeProviderPool(owner: string): void {
  closePool(owner);
}

let sweeper: NodeJS.Timeout | undefined;
function sweepIdlePools(): void {
  sweeper ??= setInterval(() => {
    const now = Date.now();
    for (const [owner, pool] of pools) if (now - pool.usedAt > IDLE_MS) closePool(owner);
    if (!pools.size) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  }, 60_000);
  sweeper.unref();
}

const resolver = new Resolver({ timeout: 5_000, tries: 2 });

/** The TTL of the host's address records, bounded; an IP literal never expires; a failed query counts as the minimum. */
async function ttlOf(host: string): Promise<number> {
  if (isIP(host)) return Number.POSITIVE_INFINITY;
  const records = await Promise.all([
    resolver.resolve4(host, { ttl: true }).catch(() => []),
    resolver.resolve6(host, { ttl: true }).catch(() => []),
  ]);
  const ttls = records.flat().map((r) => r.ttl * 1000);
  return Math.min(MAX_TTL_MS, Math.max(MIN_TTL_MS, ttls.length ? Math.min(...ttls) : MIN_TTL_MS));
}

/**
 * A TCP connection with Nagle's algorithm off. SMTP is a dialogue of small writes: with Nagle on, each
 * command waits for the delayed ACK of the one before (about 40 ms on Linux), which caps a connection at
 * a few dozen messages a second whatever the server's speed.
 */
function noDelaySocket(address: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port, noDelay: true, keepAlive: true });
    const timer = setTimeout(
      () => socket.destroy(new Error(`connection to ${address}:${port} timed out`)),
      SMTP_TIMEOUT_MS,
    );
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.removeListener("error", reject);
      resolve(socket);
    });
    socket.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

async function makePool(spec: PoolSpec): Promise<Pool> {
  const url = new URL(spec.smtpUrl);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const secure = url.protocol === "smtps:";
  const port = Number(url.port || (secure ? 465 : 587));
  const tls = url.searchParams.get("tls");
  const ttl = await ttlOf(host);
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: spec.connections ?? SMTP_CONNECTIONS,
    maxMessages: Number.POSITIVE_INFINITY,
    host,
    port,
    secure,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    tls: { servername: isIP(host) ? undefined : host },
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    ignoreTLS: tls === "none",
    // `?tls=required`: refuse to send (transient, so it is retried) when the server offers no STARTTLS.
    requireTLS: tls === "required",
    // Each connection is opened here: to the address checked just now, with TCP_NODELAY. nodemailer then
    // speaks SMTP over it (TLS at once for smtps://, STARTTLS otherwise, checked against `host`).
    getSocket: (_options: unknown, callback: (err: Error | null, socket?: { connection: Socket }) => void) => {
      spec
        .address(host)
        .then((address) => noDelaySocket(address, port))
        .then(
          (connection) => callback(null, { connection }),
          (err: Error) => callback(err),
        );
    },
  } as Parameters<typeof nodemailer.createTransport>[0]);
  return { version: spec.version, transport, expiresAt: Date.now() + ttl, usedAt: Date.now() };
}

const making = new Map<string, Promise<Pool>>();

/** The owner's pool at this version: a changed provider or an ended TTL closes the old one. */
export async function smtpPool(spec: PoolSpec): Promise<Transporter> {
  const now = Date.now();
  const pool = pools.get(spec.owner);
  if (pool && pool.version === spec.version && now < pool.expiresAt) {
    pool.usedAt = now;
    return pool.transport;
  }
  const key = `${spec.owner}\n${spec.version}`;
  let made = making.get(key);
  if (!made) {
    made = makePool(spec).finally(() => making.delete(key));
    making.set(key, made);
    made.then(
      (fresh) => {
        if (pools.get(spec.owner) !== fresh) closePool(spec.owner);
        pools.set(spec.owner, fresh);
        sweepIdlePools();
      },
      (err) => log.warn({ err, owner: spec.owner }, "smtp pool could not be made"),
    );
  }
  return (await made).transport;
}
