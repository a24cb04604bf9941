import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { z } from "zod";
import { getDb } from "@/db/client";
import { auth } from "@/lib/access/auth";
import { listMyProjects } from "@/lib/projects/list-my-projects";
import { ProjectProvider } from "@/components/console/project-context";

/** A project's pages: only for admins with a role in it (the admin API checks again on every call). */
export default async function ProjectLayout({ children, params }: { children: ReactNode; params: Promise<{ projectID: string }> }) {
  const { projectID } = await params;
  const session = await auth();
  if (!session?.user?.id) redirect("/signin");
  if (!z.uuid().safeParse(projectID).success) notFound();
  const { data } = await listMyProjects(getDb(), session.user.id);
  const project = data.find((p) => p.id === projectID);
  if (!project) notFound();
  return (
    <ProjectProvider project={{ id: project.id, name: project.name, orgName: project.org_name, role: project.role, inherited: project.inherited }}>
      {children}
    </ProjectProvider>
  );
}
