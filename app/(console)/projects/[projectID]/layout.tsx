import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { z } from "zod";
import { currentAdmin, shellData } from "@/lib/access/console-session";
import { ProjectProvider } from "@/components/console/project-context";

/** A project's pages: only for admins with a role in it (the admin API checks again on every call). */
export default async function ProjectLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ projectID: string }>;
}) {
  const { projectID } = await params;
  const admin = await currentAdmin();
  if (!admin) redirect("/signin");
  if (!z.uuid().safeParse(projectID).success) notFound();
  const project = (await shellData(admin)).projects.find((p) => p.id === projectID);
  if (!project) notFound();
  return (
    <ProjectProvider
      project={{
        id: project.id,
        name: project.name,
        orgName: project.org_name,
        role: project.role,
        inherited: project.inherited,
      }}
    >
      {children}
    </ProjectProvider>
  );
}
