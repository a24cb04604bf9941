import type { Metadata } from "next";
import { SubscriptionsPage } from "@/components/subscriptions/subscriptions-page";

export const metadata: Metadata = { title: "Subscriptions" };

/** Inside the console shell; the admin API behind it checks the session and the role on every call. */
export default async function Page({ params }: { params: Promise<{ projectID: string }> }) {
  const { projectID } = await params;
  return <SubscriptionsPage projectId={projectID} />;
}
