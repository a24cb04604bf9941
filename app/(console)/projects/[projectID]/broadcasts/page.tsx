import type { Metadata } from "next";
import { BroadcastsPage } from "@/components/broadcasts/broadcasts-page";

export const metadata: Metadata = { title: "Broadcasts" };

export default function Page() {
  return <BroadcastsPage />;
}
