/**
 * The mixed load of the scale tests and the scale benchmark: real HTTP against several web processes,
 * spread round-robin like a load balancer, with a ledger of what each answer promised. The ledger is what
 * `verify.ts` holds the database to: a 202 means recorded exactly once; a request whose connection broke
 * (its process was killed) may have been applied or not, but never twice.
 */

export const BUYERS = 60; // users b-0..b-59, made in setup: Purchased events, list and journey effects
export const FAN_COHORT = 40; // users f-0..f-39 with data.cohort = "fan": every Promo match reaches each
export const SCHEDULE_NAME = "scale_ping";

export interface Answer {
  web: number;
  op: string;
  status: number;
  at: number;
  retryAfter: string | null;
  ms: number;
}

export interface NetError {
  web: number;
  op: string;
  /** When the request was sent, and when its connection failed. */
  at: number;
  failedAt: number;
  message: string;
}

export interface Ledger {
  /** `${name}:${seq}` of events whose request was answered 202. */
  accepted: Set<string>;
  /** Events whose request broke off without an answer (or answered 5xx): recorded at most once. */
  uncertain: Set<string>;
  /** Promo (match) events: seq accepted or uncertain. */
  fanAccepted: Set<number>;
  fanUncertain: Set<number>;
  /** Upserted external ids (up-n, s-n) answered 200/201, and those left uncertain. */
  upserted: Set<string>;
  upsertUncertain: Set<string>;
  /** Schedule assignments answered 200/201: the user's external id and when it is due. */
  assigned: Map<string, number>;
  assignUncertain: Map<string, number>;
  answers: Answer[];
  netErrors: NetError[];
  /** Batches answered 202 that carried ids, to resend as duplicates. */
  idBatches: unknown[][];
}

export function newLedger(): Ledger {
  return {
    accepted: new Set(),
    uncertain: new Set(),
    fanAccepted: new Set(),
    fanUncertain: new Set(),
    upserted: new Set(),
    upsertUncertain: new Set(),
    assigned: new Map(),
    assignUncertain: new Map(),
    answers: [],
    netErrors: [],
    idBatches: [],
  };
}

export interface LoadOptions {
  /** Base URLs of the web processes (the array may be read while the load runs). */
  webs: string[];
  projectId: string;
  key: string;
  seconds: number;
  /** Concurrent clients. */
  clients: number;
  /** Events per event request. */
  batch?: number;
  /** Schedule assignments are due no later than this many ms before the load ends. */
  assignSlackMs?: number;
  /** Promo (match) requests at most every this many ms. */
  fanEveryMs?: number;
  ledger?: Ledger;
  /** Keeps the load going past `seconds` until this time (ms), read as it runs (at most 2 minutes more). */
  until?: () => number;
  /** Called with each answer (tests watch for the outage window through it). */
  onAnswer?: (a: Answer) => void;
}

const rand = (n: number) => Math.floor(Math.random() * n);

export async function runLoad(opts: LoadOptions): Promise<Ledger> {
  const ledger = opts.ledger ?? newLedger();
  const batch = opts.batch ?? 10;
  const started = Date.now();
  const end = started + opts.seconds * 1000;
  const slack = opts.assignSlackMs ?? 4000;
  const fanEvery = opts.fanEveryMs ?? 1500;
  let seq = 0;
  let upserts = 0;
  let rr = 0;
  let lastFan = 0;
  /** Webs a connection failure took out of rotation, as a load balancer's health check would. */
  const down = new Set<number>();
  const base = (p: string) => `/api/client/projects/${opts.projectId}${p}`;

  const pickWeb = () => {
    for (let i = 0; i < opts.webs.length; i++) {
      const w = rr++ % opts.webs.length;
      if (!down.has(w)) return w;
    }
    return rr++ % opts.webs.length;
  };

  /** One request; returns the status (0 for a broken connection) and the parsed body. */
  const send = async (op: string, method: string, path: string, body: unknown) => {
    const web = pickWeb();
    const at = Date.now();
    try {
      const res = await fetch(opts.webs[web] + base(path), {
        method,
        headers: { authorization: `Bearer ${opts.key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      const answer = {
        web,
        op,
        status: res.status,
        at,
        retryAfter: res.headers.get("retry-after"),
        ms: Date.now() - at,
      };
      ledger.answers.push(answer);
      opts.onAnswer?.(answer);
      let parsed: any = null;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return { status: res.status, body: parsed };
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      ledger.netErrors.push({
        web,
        op,
        at,
        failedAt: Date.now(),
        message: `${(err as Error).message}${cause ? `: ${cause.code ?? cause.message}` : ""}`,
      });
      down.add(web);
      return { status: 0, body: null };
    }
  };

  const ops = {
    async idEvents() {
      const events = Array.from({ length: batch }, () => {
        const s = ++seq;
        return {
          name: "Purchased",
          id: `buy-${s}`,
          identifier: [{ external_id: `b-${rand(BUYERS)}` }],
          data: { seq: s, amount: rand(200) },
        };
      });
      const r = await send("idEvents", "POST", "/users/events", events);
      for (const e of events)
        (r.status === 202 ? ledger.accepted : r.status === 0 || r.status >= 500 ? ledger.uncertain : null)?.add(
          `Purchased:${e.data.seq}`,
        );
      if (r.status === 202) ledger.idBatches.push(events);
    },
    async duplicateIds() {
      const again = ledger.idBatches[rand(ledger.idBatches.length)];
      if (!again) return ops.idEvents();
      // A client retrying a batch it already sent: acknowledged, recorded nothing new.
      await send("duplicateIds", "POST", "/users/events", again);
    },
    async plainEvents() {
      // No ids; some name users nobody made yet, so the drain creates them (racing workers create each once).
      const events = Array.from({ length: batch }, () => {
        const s = ++seq;
        const who = rand(4) === 0 ? `n-${rand(200)}` : `b-${rand(BUYERS)}`;
        return { name: "Viewed", identifier: [{ external_id: who }], data: { seq: s, page: `/p/${rand(50)}` } };
      });
      const r = await send("plainEvents", "POST", "/users/events", events);
      for (const e of events)
        (r.status === 202 ? ledger.accepted : r.status === 0 || r.status >= 500 ? ledger.uncertain : null)?.add(
          `Viewed:${e.data.seq}`,
        );
    },
    async upsert() {
      // New users and re-upserts of earlier ones (each id once per batch: a batch naming one twice is a 409).
      const ids = new Set(
        Array.from({ length: 5 }, () => (rand(3) === 0 && upserts > 0 ? `up-${rand(upserts)}` : `up-${upserts++}`)),
      );
      const users = [...ids].map((id) => ({
        identifier: [{ external_id: id }],
        data: { plan: "free", touched: Date.now() },
      }));
      const r = await send("upsert", "POST", "/users/batch", users);
      for (const u of users)
        (r.status === 200 ? ledger.upserted : r.status === 0 || r.status >= 500 ? ledger.upsertUncertain : null)?.add(
          u.identifier[0]!.external_id,
        );
    },
    async fanout() {
      const s = ++seq;
      const r = await send("fanout", "POST", "/users/events", [
        { name: "Promo", match: { cohort: "fan" }, data: { seq: s } },
      ]);
      if (r.status === 202) ledger.fanAccepted.add(s);
      else if (r.status === 0 || r.status >= 500) ledger.fanUncertain.add(s);
    },
    async assign() {
      // A user made now, then a one-off schedule on it due before the load ends.
      const id = `s-${++seq}`;
      const u = await send("assignUser", "POST", "/users", {
        identifier: [{ external_id: id }],
        data: { plan: "trial" },
      });
      if (u.status === 0 || u.status >= 500) ledger.upsertUncertain.add(id);
      if (u.status !== 201 && u.status !== 200) return;
      ledger.upserted.add(id);
      const latest = end - slack - Date.now();
      if (latest < 1500) return;
      const due = Date.now() + 1000 + rand(latest - 1000);
      const r = await send("assign", "POST", "/users/scheduled", {
        name: SCHEDULE_NAME,
        identifier: [{ external_id: id }],
        scheduled_at: new Date(due).toISOString(),
        data: { seq },
      });
      if (r.status === 200 || r.status === 201) ledger.assigned.set(id, due);
      else if (r.status === 0 || r.status >= 500) ledger.assignUncertain.set(id, due);
    },
  };

  const going = () => Date.now() < Math.max(end, Math.min(opts.until?.() ?? 0, end + 120_000));
  const client = async () => {
    while (going()) {
      const roll = rand(100);
      if (Date.now() - lastFan > fanEvery) {
        lastFan = Date.now();
        await ops.fanout();
      } else if (roll < 30) await ops.idEvents();
      else if (roll < 35) await ops.duplicateIds();
      else if (roll < 65) await ops.plainEvents();
      else if (roll < 85) await ops.upsert();
      else await ops.assign();
      // Pause after a refusal (503 while the database is down), as a client honouring Retry-After would, but shorter.
      const last = ledger.answers[ledger.answers.length - 1];
      if (last && last.status >= 500) await new Promise((r) => setTimeout(r, 200));
    }
  };
  await Promise.all(Array.from({ length: opts.clients }, client));
  return ledger;
}

/** Counts of answers by status, and request rate, for logs and the benchmark. */
export function summarize(ledger: Ledger, seconds: number) {
  const byStatus: Record<string, number> = {};
  for (const a of ledger.answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
  return {
    requests: ledger.answers.length,
    perSecond: Math.round(ledger.answers.length / seconds),
    byStatus,
    netErrors: ledger.netErrors.length,
    eventsAccepted: ledger.accepted.size,
    fanouts: ledger.fanAccepted.size,
    upserted: ledger.upserted.size,
    assigned: ledger.assigned.size,
  };
}

/**
 * Fires `n` requests with one key alternately at every web process, `parallel` at a time, and counts the
 * answers: with a shared store the key's bucket is one, so the total admitted stays near `burst + rate·t`
 * instead of that times the number of processes.
 */
export async function probeSharedLimit(webs: string[], projectId: string, key: string, n: number, parallel = 4) {
  const perWeb = webs.map(() => ({ ok: 0, limited: 0 }));
  const retryAfter: (string | null)[] = [];
  const other: number[] = [];
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const w = i % webs.length;
      const res = await fetch(`${webs[w]}/api/admin/projects/${projectId}/users?limit=1`, {
        headers: { authorization: `Bearer ${key}` },
      });
      await res.arrayBuffer();
      if (res.status === 200) perWeb[w]!.ok++;
      else if (res.status === 429) {
        perWeb[w]!.limited++;
        retryAfter.push(res.headers.get("retry-after"));
      } else other.push(res.status);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return { perWeb, retryAfter, other, seconds: (Date.now() - started) / 1000 };
}
