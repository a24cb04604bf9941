import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { getDb } from "@/db/client";
import { auth } from "@/lib/access/auth";
import { listMyInvites } from "@/lib/invites/my-invites";
import { listMyProjects } from "@/lib/projects/list-my-projects";
import { adminById } from "@/lib/access/admin-by-id";
import { Providers } from "@/components/console/providers";
import { Shell } from "@/components/console/shell";
import { signOutAction } from "../signin/actions";

/** Every console page needs a session; the shell gets the admin's projects and pending invitations. */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const session = await auth();
  const admin = session?.user?.id ? await adminById(getDb(), session.user.id) : null;
  if (!admin) redirect("/signin");
  const [{ data: projects }, invites] = await Promise.all([listMyProjects(getDb(), admin.id), listMyInvites(getDb(), admin)]);
  return (
    <Providers>
      <Shell email={admin.email} projects={projects} inviteCount={invites.data.length} signOut={signOutAction}>
        {children}
      </Shell>
    </Providers>
  );
}
