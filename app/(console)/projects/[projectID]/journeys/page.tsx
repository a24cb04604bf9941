import type { Metadata } from "next";
import { PendingFeature } from "@/components/pages/pending-feature";

export const metadata: Metadata = { title: "Journeys" };

export default function Page() {
  return <PendingFeature title="Journeys" />;
}
