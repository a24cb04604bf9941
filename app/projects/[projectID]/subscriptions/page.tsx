import type { Metadata } from "next";
import { SubscriptionsPage } from "@/components/subscriptions/subscriptions-page";

export const metadata: Metadata = { title: "Subscriptions" };

/**
 * Stand-alone until the console shell lands: the admin API behind it checks the console session and
 * the role on every call, so the page itself holds no data and no authorization.
 */
export default async function Page({ params }: { params: Promise<{ projectID: string }> }) {
  const { projectID } = await params;
  return (
    <main className="mx-auto max-w-4xl px-6 py-10">
      <SubscriptionsPage projectId={projectID} />
    </main>
  );
}
