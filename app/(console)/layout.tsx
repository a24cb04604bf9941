import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { currentAdmin, shellData } from "@/lib/access/console-session";
import { Providers } from "@/components/console/providers";
import { Shell } from "@/components/console/shell";
import { signOutAction } from "../signin/actions";

/** Every console page needs a session; the shell gets the admin's projects and pending invitations. */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const admin = await currentAdmin();
  if (!admin) redirect("/signin");
  const { projects, inviteCount } = await shellData(admin);
  return (
    <Providers>
      <Shell email={admin.email} projects={projects} inviteCount={inviteCount} signOut={signOutAction}>
        {children}
      </Shell>
    </Providers>
  );
}
