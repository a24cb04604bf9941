import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { BroadcastReportPage } from "@/components/reports/broadcast-report-page";

export const metadata: Metadata = { title: "Broadcast report" };

export default async function Page({ params }: { params: Promise<{ broadcastID: string }> }) {
  const { broadcastID } = await params;
  if (!z.uuid().safeParse(broadcastID).success) notFound();
  return <BroadcastReportPage broadcastId={broadcastID} />;
}
