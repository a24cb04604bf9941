import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { JourneyDetail } from "@/components/journeys/journey-detail";

export const metadata: Metadata = { title: "Journey" };

export default async function Page({ params }: { params: Promise<{ journeyID: string }> }) {
  const { journeyID } = await params;
  if (!z.uuid().safeParse(journeyID).success) notFound();
  return <JourneyDetail journeyId={journeyID} />;
}
