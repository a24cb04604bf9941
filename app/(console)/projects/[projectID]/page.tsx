import { redirect } from "next/navigation";

export default async function ProjectHome({ params }: { params: Promise<{ projectID: string }> }) {
  redirect(`/projects/${(await params).projectID}/users`);
}
