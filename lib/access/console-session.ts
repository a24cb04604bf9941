import { getDb } from "@/db/client";
import type { Admin } from "@/db/schema";
import { MAX_LIMIT } from "@/lib/http/pagination";
import { listMyInvites } from "@/lib/invites/my-invites";
import { listMyProjects } from "@/lib/projects/list-my-projects";
import { adminById } from "./admin-by-id";
import { auth } from "./auth";

/** The signed-in admin of the current request (server components), or null. */
export async function currentAdmin(): Promise<Admin | null> {
  const session = await auth();
  return session?.user?.id ? adminById({ db: getDb() }, session.user.id) : null;
}

/** What the console shell shows: the admin's projects (for the switcher) and pending invitation count. */
export async function shellData(admin: Admin) {
  const [{ data: projects }, invites] = await Promise.all([
    listMyProjects({ db: getDb(), admin }),
    listMyInvites({ db: getDb(), admin }, { limit: MAX_LIMIT }),
  ]);
  return { projects, inviteCount: invites.data.length };
}
