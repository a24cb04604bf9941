import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { inject } from "vitest";
import { sql } from "./helpers";

export interface TestAdmin {
  id: string;
  email: string;
  /** A `Cookie` header value carrying a live console session. */
  cookie: string;
}

/**
 * A console admin with a live database session, made directly in the tables next-auth uses (a magic-link
 * sign-in is exercised by the e2e suite). `verified: false` leaves emailVerified unset.
 */
export async function createTestAdmin(
  email = `admin-${crypto.randomUUID()}@example.com`,
  opts: { verified?: boolean } = {},
): Promise<TestAdmin> {
  const [admin] = await sql`
    insert into admins (email, email_verified) values (${email}, ${opts.verified === false ? null : new Date()})
    on conflict (lower(email)) do update set email = excluded.email, email_verified = excluded.email_verified returning id, email`;
  const token = randomBytes(24).toString("hex");
  await sql`insert into admin_sessions (session_token, user_id, expires) values (${token}, ${admin!.id}, now() + interval '1 day')`;
  return { id: admin!.id, email: admin!.email, cookie: `authjs.session-token=${token}` };
}

export async function addToRoster(projectId: string, adminId: string, role: string) {
  await sql`insert into project_members (project_id, admin_id, role) values (${projectId}, ${adminId}, ${role})
    on conflict (project_id, admin_id) do update set role = excluded.role`;
}

export async function setOrgRole(orgId: string, adminId: string, role: "owner" | "admin" | "member") {
  await sql`insert into admin_org_members (org_id, admin_id, role) values (${orgId}, ${adminId}, ${role})
    on conflict (org_id, admin_id) do update set role = excluded.role`;
}

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Mail the test server wrote to its outbox (integration runs have no SMTP server), newest first. */
export async function outboxFor(to: string): Promise<OutboxMail[]> {
  let text = "";
  try {
    text = await readFile(inject("outboxPath"), "utf8");
  } catch {}
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as OutboxMail)
    .filter((m) => m.to.toLowerCase() === to.toLowerCase())
    .reverse();
}
