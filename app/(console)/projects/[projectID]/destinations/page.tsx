import type { Metadata } from "next";
import { DestinationsPage } from "@/components/destinations/destinations-page";

export const metadata: Metadata = { title: "Destinations" };

export default function Page() {
  return <DestinationsPage />;
}
