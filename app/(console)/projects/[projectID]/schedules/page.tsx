import type { Metadata } from "next";
import { PendingFeature } from "@/components/pages/pending-feature";

export const metadata: Metadata = { title: "Schedules" };

export default function Page() {
  return <PendingFeature title="Schedules" />;
}
