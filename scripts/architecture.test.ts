import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  architectureViolations,
  extraVerbParameters,
  importsOf,
  oldVerbSignatures,
  rawHandleVerbs,
  readSourceTree,
  type SourceTree,
  unmappedFolders,
} from "./architecture";
import { readFile } from "node:fs/promises";

const tree = (files: Record<string, string>): SourceTree => new Map(Object.entries(files));

describe("the repository's layering (lib/, worker/, db/ READMEs)", () => {
  it("has no violations", async () => {
    const root = path.resolve(import.meta.dirname, "..");
    const files = await readSourceTree(root);
    expect(files.size).toBeGreaterThan(100);
    expect(architectureViolations(files)).toEqual([]);
  });

  it("names every folder of lib/ in lib/README.md's map", async () => {
    const root = path.resolve(import.meta.dirname, "..");
    const files = await readSourceTree(root, ["lib"]);
    expect(unmappedFolders(files, await readFile(path.join(root, "lib/README.md"), "utf8"))).toEqual([]);
  });
});

describe("unmappedFolders", () => {
  it("names a folder of lib/ without its row, and passes one with it", () => {
    const files = tree({ "lib/a/x.ts": "", "lib/b/y.ts": "", "lib/b/c/z.ts": "", "lib/README.md": "" });
    expect(unmappedFolders(files, "| ingest | `a/` | what a holds |")).toEqual([
      "lib/b/ has no line in lib/README.md's map",
    ]);
  });
});

describe("architectureViolations", () => {
  it("passes a clean tree", () => {
    expect(
      architectureViolations(
        tree({
          "lib/a/verb.ts": 'import { sql } from "drizzle-orm";\nimport { db } from "@/db/client";',
          "worker/h.ts": 'import { getDb } from "@/db/client";\nimport { verb } from "@/lib/a/verb";',
          "components/x.tsx": '"use client";\nimport type { Db } from "@/db/client";\nimport { f } from "./y";',
          "components/y.ts": "export const f = 1;",
          "db/schema/a.ts": 'import { pgTable } from "drizzle-orm/pg-core";',
        }),
      ),
    ).toEqual([]);
  });

  it("names lib/ importing app/ or worker/, also relatively", () => {
    expect(
      architectureViolations(
        tree({
          "lib/a/verb.ts": 'import { x } from "@/app/api/route";',
          "lib/b/verb.ts": 'export { y } from "../../worker/handlers";',
          "app/api/route.ts": "",
          "worker/handlers.ts": "",
        }),
      ),
    ).toEqual(["lib/a/verb.ts: lib/ imports app/api/route.ts", "lib/b/verb.ts: lib/ imports worker/handlers.ts"]);
  });

  it("names test fixtures in lib/", () => {
    expect(architectureViolations(tree({ "lib/a/a-fixtures.ts": "export const p = 1;" }))).toEqual([
      "lib/a/a-fixtures.ts: test fixtures belong in test/fixtures/",
    ]);
  });

  it("names db/ importing lib/", () => {
    expect(architectureViolations(tree({ "db/schema/a.ts": 'import { ROLES } from "@/lib/access/roles";' }))).toEqual([
      "db/schema/a.ts: db/ imports lib/access/roles",
    ]);
  });

  it("names SQL in worker/: a template, a raw execute, a database package or the schema", () => {
    expect(
      architectureViolations(
        tree({
          "worker/a.ts": "const q = sql`select 1`;",
          "worker/b.ts": 'await db.execute("select 1");',
          "worker/c.ts": 'import { eq } from "drizzle-orm";',
          "worker/d.ts": 'import { events } from "@/db/schema";',
          "worker/a.int.test.ts": "const q = sql`select 1`;",
        }),
      ),
    ).toEqual([
      "worker/a.ts: worker/ contains SQL",
      "worker/b.ts: worker/ contains SQL",
      "worker/c.ts: worker/ imports drizzle-orm",
      "worker/d.ts: worker/ imports db/schema",
    ]);
  });

  it("names a client component reaching db/ or drizzle-orm through its imports", () => {
    const found = architectureViolations(
      tree({
        "components/a.tsx": "'use client';\nimport { roles } from \"@/lib/access/roles\";",
        "lib/access/roles.ts": 'import { projectRole } from "@/db/schema/console";',
        "db/schema/console.ts": 'import { pgEnum } from "drizzle-orm/pg-core";',
        "components/c.tsx": '"use client";\nimport { PROJECT_ROLES } from "@/db/roles";',
        "db/roles.ts": "export const PROJECT_ROLES = [];",
        "components/b.tsx": '// why\n"use client";\nconst m = await import("drizzle-orm/pg-core");',
        "components/server.tsx": 'import { sql } from "drizzle-orm";',
      }),
    );
    expect(found).toEqual([
      "components/a.tsx: client component reaches db/schema/console.ts via components/a.tsx -> lib/access/roles.ts -> db/schema/console.ts",
      "components/b.tsx: client component reaches drizzle-orm via components/b.tsx -> drizzle-orm",
    ]);
  });
});

describe("oldVerbSignatures", () => {
  const old = {
    // The signatures of lib/events/list-events.ts and lib/schedules/assign-schedule.ts before the sweep.
    "lib/events/list-events.ts":
      "export async function listEvents(db: DbOrTx, projectId: string, q: z.output<typeof listEventsQuery>) {}",
    "lib/schedules/assign-schedule.ts":
      "export async function assignSchedule(db: DbOrTx, kind: SubjectKind, projectId: string, input: AssignmentInput) {}",
    "lib/a/arrow.ts": "export const findThing = async (tx: Transaction, projectId: string) => 1;",
    "lib/a/generic.ts": "export function pick<T extends object>(db: ReturnType<typeof getDb>, projectId: string): T {}",
  };

  it("names exported functions taking (db|tx, [kind,] projectId, …)", () => {
    expect(oldVerbSignatures(tree(old))).toEqual([
      "lib/events/list-events.ts: listEvents takes (db, projectId, …); a project-scoped verb takes (ctx: ProjectContext, …)",
      "lib/schedules/assign-schedule.ts: assignSchedule takes (db, projectId, …); a project-scoped verb takes (ctx: ProjectContext, …)",
      "lib/a/arrow.ts: findThing takes (db, projectId, …); a project-scoped verb takes (ctx: ProjectContext, …)",
      "lib/a/generic.ts: pick takes (db, projectId, …); a project-scoped verb takes (ctx: ProjectContext, …)",
    ]);
  });

  it("passes ctx verbs, non-project functions, private helpers, tests and other layers", () => {
    expect(
      oldVerbSignatures(
        tree({
          "lib/events/list-events.ts": "export async function listEvents(ctx: ProjectContext, q: Query) {}",
          "lib/links/follow-link.ts": "export async function followLink(db: DbOrTx, token: string) {}",
          "lib/lists/helper.ts": "async function insertRows(tx: DbOrTx, projectId: string) {}",
          "lib/lists/lists.int.test.ts": "export async function setUp(db: Db, projectId: string) {}",
          "worker/x.ts": "export async function run(db: Db, projectId: string) {}",
          "lib/users/get-user.ts": "export async function getUser(ctx: ProjectContext, userId: string) {}",
        }),
      ),
    ).toEqual([]);
  });

  it("is part of the layering check, with no folder exempt", () => {
    const found = architectureViolations(tree(old));
    for (const v of oldVerbSignatures(tree(old))) expect(found).toContain(v);
    // users/, organizations/ and identity/ were the last folders allowed the old signature.
    const lastPending = {
      "lib/users/get-user.ts": "export async function getUser(db: DbOrTx, projectId: string, userId: string) {}",
      "lib/organizations/add-members.ts":
        "export async function addMembers(tx: DbOrTx, projectId: string, inputs: MembershipInput[]) {}",
      "lib/identity/resolve.ts":
        "export async function resolveIdentifiers(tx: DbOrTx, kind: Kind, projectId: string, ids: Identifier[]) {}",
    };
    // Each twice: the old (db, projectId) signature, and a database handle where the context goes.
    expect(architectureViolations(tree(lastPending))).toHaveLength(6);
  });
});

describe("importsOf", () => {
  it("reads multi-line, side-effect, type-only and dynamic imports", () => {
    expect(
      importsOf(
        'import {\n  a,\n  b,\n} from "x";\nimport "y";\nimport type { T } from "z";\nexport * from "w";\nconst v = await import("v");',
      ),
    ).toEqual([
      { spec: "x", typeOnly: false },
      { spec: "y", typeOnly: false },
      { spec: "z", typeOnly: true },
      { spec: "w", typeOnly: false },
      { spec: "v", typeOnly: false },
    ]);
  });
});

describe("extraVerbParameters", () => {
  it("names a verb of a domain folder taking more than (ctx, input), and passes (ctx, input) ones", () => {
    expect(
      extraVerbParameters(
        tree({
          "lib/identity/a.ts":
            "export async function upsertRecords(ctx: ProjectContext, kind: Kind, items: RecordChange[]) {}",
          "lib/identity/b.ts":
            "export async function loadRecords(\n  ctx: ProjectContext,\n  input: { kind: Kind; ids: Map<string, string> },\n): Promise<X> {}",
          "lib/identity/c.ts":
            "export async function listIdentifiers(ctx: ProjectContext, input: { f: (a: number, b: number) => void }) {}",
          "lib/users/d.ts":
            'export async function upsertUserInTransaction(ctx: ProjectContext, input: UserInput, path = "identifier") {}',
          // lib/db/ is plumbing, not a folder of verbs.
          "lib/db/e.ts": "export async function inBatches(ctx: ProjectContext, id: string, patch: Patch) {}",
          "lib/identity/e.int.test.ts": "export async function helper(ctx: ProjectContext, a: 1, b: 2) {}",
        }),
      ),
    ).toEqual([
      "lib/identity/a.ts: upsertRecords takes 3 parameters; a verb takes (ctx, input)",
      "lib/users/d.ts: upsertUserInTransaction takes 3 parameters; a verb takes (ctx, input)",
    ]);
  });
});

describe("rawHandleVerbs", () => {
  it("names a verb of a domain folder taking a database handle, and passes context-taking ones", () => {
    const found = rawHandleVerbs(
      tree({
        // The signatures of lib/invites/accept-invite.ts and lib/links/follow-link.ts before they took a context.
        "lib/invites/accept-invite.ts": "export async function acceptInvite(db: Db, admin: Admin, inviteId: string) {}",
        "lib/links/follow-link.ts": "export async function followLink(\n  db: DbOrTx,\n  token: string,\n) {}",
        "lib/access/api-keys.ts": "export function touchKey(db: Db, keyId: string): void {}",
        "lib/access/registration.ts": "export async function maySignIn(ctx: AppContext, email: string) {}",
        "lib/projects/create-project.ts": "export async function createProject(ctx: AppContext, input: NewProject) {}",
        "lib/access/context.ts": "export function systemContext<D extends DbOrTx>(db: D, projectId: string) {}",
        "lib/db/transaction.ts": "export async function withTransaction<T>(db: DbOrTx, fn: Fn<T>) {}",
        "lib/queue/enqueue.ts": "export async function enqueue(tx: DbOrTx, name: string, data: unknown) {}",
        "lib/links/follow-link.int.test.ts": "export async function helper(db: Db) {}",
        // A folder nobody listed anywhere is a domain folder: checked from its first file.
        "lib/billing/charge.ts": "export async function charge(db: Db, input: Charge) {}",
      }),
    );
    expect(found).toEqual([
      "lib/invites/accept-invite.ts: acceptInvite takes a database handle; a verb takes (ctx, input), an AppContext before a project is known",
      "lib/links/follow-link.ts: followLink takes a database handle; a verb takes (ctx, input), an AppContext before a project is known",
      "lib/access/api-keys.ts: touchKey takes a database handle; a verb takes (ctx, input), an AppContext before a project is known",
      "lib/billing/charge.ts: charge takes a database handle; a verb takes (ctx, input), an AppContext before a project is known",
    ]);
    expect(architectureViolations(tree({ "lib/projects/x.ts": "export async function f(tx: DbOrTx) {}" }))).toEqual([
      "lib/projects/x.ts: f takes a database handle; a verb takes (ctx, input), an AppContext before a project is known",
    ]);
  });
});
