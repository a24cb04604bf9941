import type { Metadata } from "next";
import { JourneysPage } from "@/components/journeys/journeys-page";

export const metadata: Metadata = { title: "Journeys" };

export default function Page() {
  return <JourneysPage />;
}
