import { parseArgs } from "node:util";
import { closeDatabase, databaseUrl, getDb } from "../db/client";
import { runMigrations } from "../db/migrate";
import { createApiKey } from "../lib/access/api-keys";
import { isRole, ROLES } from "../lib/access/roles";
import { createKeyBody, DEFAULT_BURST } from "../lib/keys/schemas";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { projects } from "../db/schema";
import { eq } from "drizzle-orm";
import { createReadStream } from "node:fs";
import path from "node:path";
import { createImport } from "../lib/imports/create-import";
import { IMPORT_KINDS, type ImportKind } from "../lib/imports/formats";
import { getImport } from "../lib/imports/get-import";
import { systemContext } from "../lib/access/context";

const USAGE = `Usage: npm run cli -- <command> [options]

  create-project --org <name> --name <name> --owner <email> [--json]
      Creates the project, and a client-role API key, in the org of that name the owner belongs to
      (made owner there if they were only a member or admin), or in a new org with them as owner.
  create-key --project <id> --role <support|client|editor|admin> [--name <name>]
             [--rate <n>/s] [--burst <n>] [--origin <url>]... [--json]
      Creates an API key; the secret is printed once. --rate and --burst set its rate limit
      (default 100/s, burst 500). --origin (repeatable, role client only) makes a browser key that
      web pages at exactly those origins may call (e.g. --origin https://shop.example.com).
  import --project <id> --file <path> [--kind users|organizations|memberships]
      Uploads a CSV (.csv) or NDJSON (.ndjson, .jsonl) file as an import and shows its progress until
      the worker has applied it (a worker must be running: npm run dev / npm start). Ctrl-C leaves the
      import running; DELETE /api/admin/projects/{id}/imports/{importId} cancels it.
  migrate
      Applies the database migrations.

DATABASE_URL selects the database; without it, the embedded one that "npm run dev" runs.`;

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      org: { type: "string" },
      name: { type: "string" },
      owner: { type: "string" },
      project: { type: "string" },
      role: { type: "string" },
      json: { type: "boolean", default: false },
      rate: { type: "string" },
      burst: { type: "string" },
      file: { type: "string" },
      kind: { type: "string" },
      origin: { type: "string", multiple: true },
    },
    strict: true,
  });
  const fail = (msg: string): never => {
    console.error(`${msg}\n\n${USAGE}`);
    process.exit(2);
  };

  switch (command) {
    case "migrate":
      await runMigrations(databaseUrl());
      console.log("migrations applied");
      return;
    case "create-project": {
      if (!values.org || !values.name || !values.owner) fail("create-project needs --org, --name and --owner");
      if (!/^[^@\s]+@[^@\s]+$/.test(values.owner!)) fail("--owner must be an e-mail address");
      const db = getDb();
      const { orgId, project, promotedFrom } = await createProjectWithOwner(
        { db },
        { orgName: values.org!, projectName: values.name!, ownerEmail: values.owner! },
      );
      const { secret } = await createApiKey(
        { db },
        { projectId: project.id, name: "Default client key", role: "client" },
      );
      if (values.json)
        console.log(JSON.stringify({ orgId, projectId: project.id, apiKey: secret, ownerPromotedFrom: promotedFrom }));
      else {
        if (promotedFrom)
          console.log(
            `note     ${values.owner} was ${promotedFrom} of the existing org "${values.org}" and is now its owner`,
          );
        console.log(`org      ${orgId}\nproject  ${project.id}\napi key  ${secret}   (client role; shown once)`);
      }
      return;
    }
    case "create-key": {
      if (!values.project || !values.role) fail("create-key needs --project and --role");
      if (!isRole(values.role)) fail(`--role must be one of ${ROLES.join(", ")}`);
      const limits = parseKeyLimits(values.rate, values.burst);
      if (typeof limits === "string") fail(limits);
      const origins = parseOrigins(values.origin, values.role!);
      if (typeof origins === "string") fail(origins);
      const db = getDb();
      const [project] = /^[0-9a-f-]{36}$/i.test(values.project!)
        ? await db.select().from(projects).where(eq(projects.id, values.project!))
        : [];
      if (!project) fail(`no project ${values.project}`);
      const { key, secret } = await createApiKey(
        { db },
        {
          projectId: project!.id,
          name: values.name ?? `${values.role} key`,
          role: values.role as never,
          ...(limits as object),
          allowedOrigins: origins as string[] | null,
        },
      );
      const rate = { ratePerSecond: key.rateLimitPerSecond, burst: key.rateLimitBurst };
      if (values.json)
        console.log(
          JSON.stringify({
            keyId: key.id,
            projectId: key.projectId,
            role: key.role,
            ...rate,
            allowedOrigins: key.allowedOrigins,
            apiKey: secret,
          }),
        );
      else {
        const origin = key.allowedOrigins
          ? `\norigins  ${key.allowedOrigins.join(" ")}   (browser key: POST /users and /users/events only)`
          : "";
        console.log(
          `key      ${key.id}\nrole     ${key.role}\nlimit    ${rate.ratePerSecond}/s, burst ${rate.burst}${origin}\napi key  ${secret}   (shown once)`,
        );
      }
      return;
    }
    case "import": {
      if (!values.project || !values.file) fail("import needs --project and --file");
      const kind = values.kind ?? "users";
      if (!(IMPORT_KINDS as readonly string[]).includes(kind)) fail(`--kind must be one of ${IMPORT_KINDS.join(", ")}`);
      const db = getDb();
      const [project] = /^[0-9a-f-]{36}$/i.test(values.project!)
        ? await db.select().from(projects).where(eq(projects.id, values.project!))
        : [];
      if (!project) fail(`no project ${values.project}`);
      const contentType = /\.csv$/i.test(values.file!)
        ? "text/csv"
        : /\.(nd)?jsonl?$|\.ndjson$/i.test(values.file!)
          ? "application/x-ndjson"
          : null;
      if (!contentType) fail("--file must end in .csv, .ndjson or .jsonl");
      const started = await createImport(systemContext(db, project!.id), {
        kind: kind as ImportKind,
        contentType,
        fileName: path.basename(values.file!),
        body: createReadStream(values.file!),
      });
      console.log(`import   ${started.id} (${started.bytes} bytes, ${kind})`);
      await followImport(db, project!.id, started.id, values.json ?? false);
      return;
    }
    default:
      fail(command ? `unknown command ${command}` : "no command given");
  }
}

/** Polls the import and redraws one progress line (a bar on a terminal, plain lines otherwise) until it ends. */
async function followImport(db: ReturnType<typeof getDb>, projectId: string, id: string, asJson: boolean) {
  const tty = process.stdout.isTTY && !asJson;
  const started = Date.now();
  for (;;) {
    const v = await getImport(systemContext(db, projectId), id);
    const share = v.bytes ? v.bytes_processed / v.bytes : 0;
    const width = 30;
    const bar = "#".repeat(Math.round(share * width)).padEnd(width, ".");
    const rate = Math.round(v.rows / Math.max(1, (Date.now() - started) / 1000));
    const line = `[${bar}] ${(share * 100).toFixed(1).padStart(5)}%  ${v.state.padEnd(9)} rows ${v.rows}  applied ${v.processed}  failed ${v.failed}  ${rate}/s`;
    if (tty) process.stdout.write(`\r${line}`);
    else if (!asJson) console.log(line);
    if (["done", "failed", "cancelled"].includes(v.state)) {
      if (tty) process.stdout.write("\n");
      if (asJson) console.log(JSON.stringify(v));
      else for (const e of v.errors.slice(0, 20)) console.log(`line ${e.line}: ${e.message}`);
      if (!asJson && v.failed > 20)
        console.log(`… ${v.failed - 20} more row errors (GET /imports/${id} lists the first 1,000)`);
      if (v.state !== "done") process.exitCode = 1;
      return;
    }
    await new Promise((r) => setTimeout(r, tty ? 250 : 2000));
  }
}

/** `--rate 20/s --burst 50` checked with the keys API's own schema; an error message on bad input. */
function parseKeyLimits(
  rate?: string,
  burst?: string,
): { rateLimitPerSecond?: number; rateLimitBurst?: number } | string {
  if (rate === undefined && burst === undefined) return {};
  const r = rate === undefined ? undefined : /^(\d+)(\/s)?$/.exec(rate.trim());
  if (rate !== undefined && !r) return "--rate must look like 20/s";
  const b = burst === undefined ? undefined : /^\d+$/.test(burst.trim()) ? Number(burst) : NaN;
  if (Number.isNaN(b)) return "--burst must be a whole number";
  const parsed = createKeyBody.safeParse({
    name: "cli",
    role: "client",
    rate_limit_per_second: r ? Number(r[1]) : undefined,
    rate_limit_burst: b,
  });
  if (!parsed.success)
    return parsed.error.issues
      .map((i) => `--${i.path.join(".") === "rate_limit_burst" ? "burst" : "rate"}: ${i.message}`)
      .join("; ");
  return {
    rateLimitPerSecond: parsed.data.rate_limit_per_second,
    rateLimitBurst: parsed.data.rate_limit_burst ?? Math.max(DEFAULT_BURST, parsed.data.rate_limit_per_second),
  };
}

/** `--origin` values checked with the keys API's own schema (exact origins, client role only); null without any. */
function parseOrigins(origins: string[] | undefined, role: string): string[] | null | string {
  if (!origins?.length) return null;
  const parsed = createKeyBody.safeParse({ name: "cli", role, allowed_origins: origins });
  if (!parsed.success)
    return parsed.error.issues
      .map((i) => `--origin${i.path.length > 1 ? ` ${origins[Number(i.path[1])]}` : ""}: ${i.message}`)
      .join("; ");
  return parsed.data.allowed_origins ?? null;
}

// Without DATABASE_URL, talk to the embedded database that `npm run dev` runs.
if (!process.env.DATABASE_URL) {
  process.env.DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${process.env.EMBEDDED_PG_PORT ?? 54329}/relay`;
}

try {
  await main(process.argv.slice(2));
} catch (err) {
  const code = (err as { code?: string; cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;
  if (code === "ECONNREFUSED")
    console.error(
      `Cannot reach the database at ${process.env.DATABASE_URL}. Start \`npm run dev\` or set DATABASE_URL.`,
    );
  else console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
