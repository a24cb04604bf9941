import { parseArgs } from "node:util";
import { closeDatabase, databaseUrl, getDb } from "../db/client";
import { runMigrations } from "../db/migrate";
import { createApiKey } from "../lib/access/api-keys";
import { isRole, ROLES } from "../lib/access/roles";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { projects } from "../db/schema";
import { eq } from "drizzle-orm";

const USAGE = `Usage: npm run cli -- <command> [options]

  create-project --org <name> --name <name> --owner <email> [--json]
      Creates the admin org (if new, with the owner), the project, and a client-role API key.
  create-key --project <id> --role <support|client|editor|admin> [--name <name>] [--json]
      Creates an API key; the secret is printed once.
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
      const { orgId, project } = await createProjectWithOwner(db, { orgName: values.org!, projectName: values.name!, ownerEmail: values.owner! });
      const { secret } = await createApiKey(db, { projectId: project.id, name: "Default client key", role: "client" });
      if (values.json) console.log(JSON.stringify({ orgId, projectId: project.id, apiKey: secret }));
      else console.log(`org      ${orgId}\nproject  ${project.id}\napi key  ${secret}   (client role; shown once)`);
      return;
    }
    case "create-key": {
      if (!values.project || !values.role) fail("create-key needs --project and --role");
      if (!isRole(values.role)) fail(`--role must be one of ${ROLES.join(", ")}`);
      const db = getDb();
      const [project] = /^[0-9a-f-]{36}$/i.test(values.project!) ? await db.select().from(projects).where(eq(projects.id, values.project!)) : [];
      if (!project) fail(`no project ${values.project}`);
      const { key, secret } = await createApiKey(db, { projectId: project!.id, name: values.name ?? `${values.role} key`, role: values.role as never });
      if (values.json) console.log(JSON.stringify({ keyId: key.id, projectId: key.projectId, role: key.role, apiKey: secret }));
      else console.log(`key      ${key.id}\nrole     ${key.role}\napi key  ${secret}   (shown once)`);
      return;
    }
    default:
      fail(command ? `unknown command ${command}` : "no command given");
  }
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
