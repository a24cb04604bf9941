import type { Metadata } from "next";
import { Suspense } from "react";
import { EventsPage } from "@/components/events/events-page";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Live events" };

export default function Page() {
  return (
    <Suspense fallback={<LoadingRows rows={6} label="Loading events" />}>
      <EventsPage />
    </Suspense>
  );
}
