"use client";
import { createContext, useContext, type ReactNode } from "react";
import type { Role } from "@/lib/access/roles";

export interface CurrentProject {
  id: string;
  name: string;
  orgName: string;
  role: Role;
  inherited: boolean;
}

const Ctx = createContext<CurrentProject | null>(null);

export function ProjectProvider({ project, children }: { project: CurrentProject; children: ReactNode }) {
  return <Ctx.Provider value={project}>{children}</Ctx.Provider>;
}

export function useProject(): CurrentProject {
  const p = useContext(Ctx);
  if (!p) throw new Error("useProject outside a project page");
  return p;
}
