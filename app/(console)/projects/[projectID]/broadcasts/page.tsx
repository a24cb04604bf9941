import type { Metadata } from "next";
import { BroadcastsPage } from "@/components/pages/broadcasts-page";

export const metadata: Metadata = { title: "Broadcasts" };

export default function Page() {
  return <BroadcastsPage />;
}
