import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import postgres from "postgres";
import { mulberry32 } from "../scripts/test/prng";

/*
 * The console-scale bench's data, written with COPY (text format) from rows generated here: a project's
 * users (with a default identifier each), its events spread over weeks, the schema and per-minute rollups
 * the pipeline would have kept for them, a static list of a tenth of the users and a journey with entries.
 * Deterministic (a seeded PRNG), so two runs seed the same data. Ids are valid UUIDv7s (version 7, variant
 * 10) built from each row's time, so the API accepts them and they sort by time as the product's do.
 */

const FIRST = [
  "Ada",
  "Ben",
  "Chloé",
  "Dara",
  "Emil",
  "Fatima",
  "Goran",
  "Hana",
  "Ivo",
  "Jun",
  "Kofi",
  "Lena",
  "Mateo",
  "Noor",
  "Olu",
  "Priya",
];
const LAST = [
  "Ng",
  "Okafor",
  "Schmidt",
  "Silva",
  "Tanaka",
  "Kowalski",
  "Haddad",
  "Moreau",
  "Novak",
  "Larsen",
  "Rossi",
  "Kaur",
];
const DOMAINS = ["example.com", "mail.test", "corp.test", "bench.test"];
const COUNTRIES = ["US", "DE", "FR", "BR", "IN", "JP", "NG", "GB", "PL", "CA"];
const PLANS = [
  ["free", 0.6],
  ["pro", 0.25],
  ["team", 0.1],
  ["trial", 0.05],
] as const;
/** Event names with their share of events; names with a dot are the product's own (origin `system`). */
const NAMES = [
  ["page_viewed", 0.55],
  ["button_clicked", 0.17],
  ["purchase", 0.08],
  ["search", 0.1],
  ["signup_step", 0.06],
  ["user.updated", 0.03],
  ["scheduled.renewal", 0.01],
] as const;
const PATHS: Record<string, string[]> = {
  page_viewed: ["path", "referrer"],
  button_clicked: ["button", "path"],
  purchase: ["amount", "currency", "sku"],
  search: ["query", "results"],
  signup_step: ["step"],
  "user.updated": ["changed"],
  "scheduled.renewal": ["schedule_id"],
};

const pick = <T>(weighted: readonly (readonly [T, number])[], r: number): T => {
  for (const [v, w] of weighted) {
    if (r < w) return v;
    r -= w;
  }
  return weighted[weighted.length - 1]![0];
};

/** A UUIDv7 of `ms` whose 74 "random" bits are `salt` and `seq`: unique per (salt, seq), time-ordered by `ms`. */
export function uuid7(ms: number, salt: number, seq: number): string {
  const h = Math.floor(ms).toString(16).padStart(12, "0");
  const s = seq.toString(16).padStart(12, "0");
  const x = (salt & 0xfff).toString(16).padStart(3, "0");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-7${x}-8${s.slice(0, 3)}-${s.slice(3, 12)}${"000"}`.slice(0, 36);
}

const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 86_400_000;

export interface SeedOptions {
  url: string;
  projectId: string;
  /** Distinguishes the ids of one seeded project from another's. */
  salt: number;
  users: number;
  events: number;
  /** Users signed up over this many days before `now`; events happen over `eventDays`. */
  userDays: number;
  eventDays: number;
  now: number;
  /** Parallel COPY streams for the events. */
  streams: number;
}

export interface Seeded {
  userIds: string[];
  emails: (string | null)[];
  names: string[];
  listId: string;
  journeyId: string;
}

/** Rows into `copy <table> (<columns>) from stdin` over a connection of its own, in chunks of joined lines. */
async function copy(url: string, table: string, columns: string[], rows: () => Generator<string>) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const writable = await sql.unsafe(`copy ${table} (${columns.join(", ")}) from stdin`).writable();
    async function* chunks() {
      let buf: string[] = [];
      for (const line of rows()) {
        buf.push(line);
        if (buf.length === 5_000) {
          yield `${buf.join("\n")}\n`;
          buf = [];
        }
      }
      if (buf.length) yield `${buf.join("\n")}\n`;
    }
    await pipeline(Readable.from(chunks()), writable);
  } finally {
    await sql.end();
  }
}

export async function seedProject(o: SeedOptions): Promise<Seeded> {
  const { projectId: p, users } = o;
  const rnd = mulberry32(o.salt * 7919 + 1);
  // Users sign up over userDays, oldest first, so index order is time order.
  const userIds: string[] = new Array(users);
  const emails: (string | null)[] = new Array(users);
  const names: string[] = new Array(users);
  const userRows: string[] = new Array(users);
  for (let i = 0; i < users; i++) {
    const ms = o.now - o.userDays * DAY + Math.floor(((i + rnd()) / users) * o.userDays * DAY) - 60_000;
    const first = FIRST[Math.floor(rnd() * FIRST.length)]!;
    const last = LAST[Math.floor(rnd() * LAST.length)]!;
    userIds[i] = uuid7(ms, o.salt, i);
    names[i] = `${first} ${last} ${i}`;
    emails[i] = rnd() < 0.03 ? null : `${first}.${last}.${i}@${DOMAINS[i % DOMAINS.length]}`.toLowerCase();
    const data = {
      name: names[i],
      plan: pick(PLANS, rnd()),
      seats: 1 + Math.floor(rnd() * rnd() * 50),
      country: COUNTRIES[Math.floor(rnd() * COUNTRIES.length)],
      ...(rnd() < 0.3 ? { company: `${last} & Co ${i % 997}` } : {}),
    };
    userRows[i] =
      `${p}\t${userIds[i]}\t${emails[i] ?? "\\N"}\t${JSON.stringify(data).replace(/\\/g, "\\\\")}\t${iso(ms)}\t${iso(ms)}`;
  }
  await copy(o.url, "users", ["project_id", "id", "email", "data", "created_at", "updated_at"], function* () {
    yield* userRows;
  });
  userRows.length = 0;
  await copy(o.url, "user_identifiers", ["project_id", "source", "external_id", "user_id"], function* () {
    for (let i = 0; i < users; i++) yield `${p}\tdefault\tu-${i}\t${userIds[i]}`;
  });

  // Events: times spread evenly over eventDays (newest now), users drawn with a skew (a few are very
  // active, most are not), a user's events never before their signup. Rollups and schema counted on the way.
  const rollups = new Map<string, number>();
  const schema = new Map<string, { count: number; first: number; last: number }>();
  const purchases: { id: string; user: string; ms: number; amount: number }[] = [];
  const span = o.eventDays * DAY;
  const per = Math.ceil(o.events / o.streams);
  const streams = Array.from({ length: o.streams }, (_, s) =>
    copy(
      o.url,
      "events",
      ["project_id", "id", "name", "user_id", "data", "origin", "occurred_at", "received_at"],
      function* () {
        const r = mulberry32(o.salt * 104729 + s + 17);
        const to = Math.min(o.events, (s + 1) * per);
        for (let k = s * per; k < to; k++) {
          const received = o.now - span + Math.floor(((k + 0.5) / o.events) * span);
          // Skewed toward a few users; the permutation (a prime stride) scatters them over signup times.
          let u = (Math.floor(users * r() ** 2) * 7919) % users;
          const uid = userIds[u]!;
          // A user's events come after they signed up: otherwise the event is a newer user's.
          if (Number.parseInt(uid.slice(0, 8) + uid.slice(9, 13), 16) > received)
            u = Math.min(users - 1, Math.floor(users * (1 - r() * 0.05)));
          const name = pick(NAMES, r());
          const system = name.includes(".");
          const occurred = system ? received : received - Math.floor(r() * 5_000);
          let data: Record<string, unknown>;
          if (name === "purchase") {
            const amount = 1 + Math.floor(r() * 499);
            data = { amount, currency: r() < 0.7 ? "USD" : "EUR", sku: `sku-${Math.floor(r() * 200)}` };
          } else if (name === "page_viewed") data = { path: `/p/${Math.floor(r() * r() * 100)}`, referrer: "search" };
          else if (name === "button_clicked") data = { button: `b${Math.floor(r() * 20)}`, path: "/app" };
          else if (name === "search") data = { query: `q${Math.floor(r() * 1000)}`, results: Math.floor(r() * 40) };
          else if (name === "signup_step") data = { step: 1 + Math.floor(r() * 4) };
          else if (name === "user.updated") data = { changed: ["plan"] };
          else data = { schedule_id: "renewal" };
          const id = uuid7(received, o.salt + 1 + s, k);
          const metric = name.startsWith("scheduled.")
            ? "events.scheduled"
            : system
              ? "events.system"
              : "events.client";
          const minute = Math.floor(received / 60_000) * 60_000;
          const rk = `${metric}\t${minute}`;
          rollups.set(rk, (rollups.get(rk) ?? 0) + 1);
          for (const path of ["", ...PATHS[name]!]) {
            const sk = `${name}\t${path}`;
            const e = schema.get(sk);
            if (e) {
              e.count++;
              e.first = Math.min(e.first, occurred);
              e.last = Math.max(e.last, occurred);
            } else schema.set(sk, { count: 1, first: occurred, last: occurred });
          }
          if (name === "purchase" && k % 5 === 0)
            purchases.push({ id, user: userIds[u]!, ms: received, amount: data.amount as number });
          yield `${p}\t${id}\t${name}\t${userIds[u]}\t${JSON.stringify(data)}\t${system ? "system" : "client"}\t${iso(occurred)}\t${iso(received)}`;
        }
      },
    ),
  );
  await Promise.all(streams);

  await copy(o.url, "project_rollups", ["project_id", "metric", "minute", "count"], function* () {
    for (const [k, n] of rollups) {
      const [metric, minute] = k.split("\t");
      yield `${p}\t${metric}\t${iso(Number(minute))}\t${n}`;
    }
  });
  await copy(
    o.url,
    "event_schema",
    ["project_id", "event_name", "path", "types", "count", "first_seen", "last_seen"],
    function* () {
      for (const [k, e] of schema)
        yield `${p}\t${k}\t{${k.endsWith("\t") ? "object" : "number"}}\t${e.count}\t${iso(e.first)}\t${iso(e.last)}`;
    },
  );

  const sql = postgres(o.url, { max: 1, onnotice: () => {} });
  try {
    const [list] = await sql<{ id: string }[]>`
      insert into lists (project_id, name, kind) values (${p}, 'Tenth', 'static') returning id`;
    const [journey] = await sql<{ id: string }[]>`
      insert into journeys (project_id, name, allow_multiple_entries) values (${p}, 'Purchasers', true) returning id`;
    const [entrance] = await sql<{ id: string }[]>`
      insert into journey_entrances (project_id, journey_id, kind, event_name, data_key)
      values (${p}, ${journey!.id}, 'event', 'purchase', 'purchase') returning id`;
    await copy(o.url, "list_members", ["project_id", "list_id", "user_id"], function* () {
      for (let i = 0; i < users; i += 10) yield `${p}\t${list!.id}\t${userIds[i]}`;
    });
    purchases.sort((a, b) => a.ms - b.ms);
    await copy(
      o.url,
      "journey_entries",
      ["project_id", "id", "journey_id", "entrance_id", "user_id", "event_id", "context", "entered_at", "exited_at"],
      function* () {
        for (const [i, e] of purchases.entries())
          yield `${p}\t${uuid7(e.ms + 50, o.salt + 9, i)}\t${journey!.id}\t${entrance!.id}\t${e.user}\t${e.id}\t${JSON.stringify({ amount: e.amount })}\t${iso(e.ms + 50)}\t${i % 3 ? iso(e.ms + 3_600_000) : "\\N"}`;
      },
    );
    return { userIds, emails, names, listId: list!.id, journeyId: journey!.id };
  } finally {
    await sql.end();
  }
}
