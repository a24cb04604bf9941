import { and, eq, gt, sql } from "drizzle-orm";
import type { AppContext } from "./context";
import { admins, adminSessions, type Admin } from "@/db/schema";

/** next-auth's database-session cookie (the `__Secure-` form is used over https). */
export const SESSION_COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"] as const;

export function sessionTokenFrom(req: Request): string | null {
  const header = req.headers.get("cookie");
  if (!header) return null;
  const cookies = new Map(
    header.split(";").map((part) => {
      const i = part.indexOf("=");
      return [part.slice(0, i).trim(), safeDecode(part.slice(i + 1).trim())] as const;
    }),
  );
  for (const name of SESSION_COOKIES) {
    const v = cookies.get(name);
    if (v) return v;
  }
  return null;
}

/** Another site's malformed cookie (a stray `%`) must not turn a request into a 500: keep it as sent. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The admin behind a live session token, or null. */
export async function adminForSessionToken(ctx: AppContext, token: string | null): Promise<Admin | null> {
  if (!token) return null;
  const [row] = await ctx.db
    .select({ admin: admins })
    .from(adminSessions)
    .innerJoin(admins, eq(admins.id, adminSessions.userId))
    .where(and(eq(adminSessions.sessionToken, token), gt(adminSessions.expires, sql`now()`)))
    .limit(1);
  return row?.admin ?? null;
}

export async function adminForRequest(ctx: AppContext, req: Request): Promise<Admin | null> {
  return adminForSessionToken(ctx, sessionTokenFrom(req));
}
