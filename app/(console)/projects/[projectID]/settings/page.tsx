import type { Metadata } from "next";
import { ProjectSettingsPage } from "@/components/projects/project-settings-page";

export const metadata: Metadata = { title: "Project settings" };

export default function Page() {
  return <ProjectSettingsPage />;
}
