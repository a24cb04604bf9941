import { parseArgs } from "node:util";
import { closeDatabase, databaseUrl, getDb } from "../db/client";
import { runMigrations } from "../db/migrate";
import { createApiKey } from "../lib/access/api-keys";
import { isRole, ROLES } from "../lib/access/roles";
import { createKeyBody, DEFAULT_BURST } from "../lib/keys/schemas";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { projects } from "../db/schema";
import { eq } from "drizzle-orm";

const USAGE = `Usage: npm run cli -- <command> [options]

  create-project --org <name> --name <name> --owner <email> [--json]
      Creates the project, and a client-role API key, in the org of that name the owner belongs to
      (made owner there if they were only a member or admin), or in a new org with them as owner.
  create-key --project <id> --role <support|client|editor|admin> [--name <name>]
             [--rate <n>/s] [--burst <n>] [--json]
      Creates an API key; the secret is printed once. --rate and --burst set its rate limit
      (default 100/s, burst 500).
  migrate
      Applies the database migrations.

DATABASE_URL selects the database; without it, the embedded one that "npm run dev" runs.`;

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      org: { type: "string" }, name: { type: "string" }, owner: { type: "string" },
      project: { type: "string" }, role: { type: "string" }, json: { type: "boolean", default: false },
      rate: { type: "string" }, burst: { type: "string" },
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
      const { orgId, project, promotedFrom } = await createProjectWithOwner(db, { orgName: values.org!, projectName: values.name!, ownerEmail: values.owner! });
      const { secret } = await createApiKey(db, { projectId: project.id, name: "Default client key", role: "client" });
      if (values.json) console.log(JSON.stringify({ orgId, projectId: project.id, apiKey: secret, ownerPromotedFrom: promotedFrom }));
      else {
        if (promotedFrom) console.log(`note     ${values.owner} was ${promotedFrom} of the existing org "${values.org}" and is now its owner`);
        console.log(`org      ${orgId}\nproject  ${project.id}\napi key  ${secret}   (client role; shown once)`);
      }
      return;
    }
    case "create-key": {
      if (!values.project || !values.role) fail("create-key needs --project and --role");
      if (!isRole(values.role)) fail(`--role must be one of ${ROLES.join(", ")}`);
      const limits = parseKeyLimits(values.rate, values.burst);
      if (typeof limits === "string") fail(limits);
      const db = getDb();
      const [project] = /^[0-9a-f-]{36}$/i.test(values.project!) ? await db.select().from(projects).where(eq(projects.id, values.project!)) : [];
      if (!project) fail(`no project ${values.project}`);
      const { key, secret } = await createApiKey(db, { projectId: project!.id, name: values.name ?? `${values.role} key`, role: values.role as never, ...(limits as object) });
      const rate = { ratePerSecond: key.rateLimitPerSecond, burst: key.rateLimitBurst };
      if (values.json) console.log(JSON.stringify({ keyId: key.id, projectId: key.projectId, role: key.role, ...rate, apiKey: secret }));
      else console.log(`key      ${key.id}\nrole     ${key.role}\nlimit    ${rate.ratePerSecond}/s, burst ${rate.burst}\napi key  ${secret}   (shown once)`);
      return;
    }
    default:
      fail(command ? `unknown command ${command}` : "no command given");
  }
}

/** `--rate 20/s --burst 50` checked with the keys API's own schema; an error message on bad input. */
function parseKeyLimits(rate?: string, burst?: string): { rateLimitPerSecond?: number; rateLimitBurst?: number } | string {
  if (rate === undefined && burst === undefined) return {};
  const r = rate === undefined ? undefined : /^(\d+)(\/s)?$/.exec(rate.trim());
  if (rate !== undefined && !r) return "--rate must look like 20/s";
  const b = burst === undefined ? undefined : /^\d+$/.test(burst.trim()) ? Number(burst) : NaN;
  if (Number.isNaN(b)) return "--burst must be a whole number";
  const parsed = createKeyBody.safeParse({ name: "cli", role: "client", rate_limit_per_second: r ? Number(r[1]) : undefined, rate_limit_burst: b });
  if (!parsed.success) return parsed.error.issues.map((i) => `--${i.path.join(".") === "rate_limit_burst" ? "burst" : "rate"}: ${i.message}`).join("; ");
  return { rateLimitPerSecond: parsed.data.rate_limit_per_second, rateLimitBurst: parsed.data.rate_limit_burst ?? Math.max(DEFAULT_BURST, parsed.data.rate_limit_per_second) };
}

// Without DATABASE_URL, talk to the embedded database that `npm run dev` runs.
if (!process.env.DATABASE_URL) {
  process.env.DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${process.env.EMBEDDED_PG_PORT ?? 54329}/relay`;
}

try {
  await main(process.argv.slice(2));
} catch (err) {
  const code = (err as { code?: string; cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;
  if (code === "ECONNREFUSED") console.error(`Cannot reach the database at ${process.env.DATABASE_URL}. Start \`npm run dev\` or set DATABASE_URL.`);
  else console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
