import type { Metadata } from "next";
import { DestinationsPage } from "@/components/pages/destinations-page";

export const metadata: Metadata = { title: "Destinations" };

export default function Page() {
  return <DestinationsPage />;
}
