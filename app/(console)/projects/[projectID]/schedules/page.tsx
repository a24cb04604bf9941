import type { Metadata } from "next";
import { SchedulesPage } from "@/components/pages/schedules-page";

export const metadata: Metadata = { title: "Schedules" };

export default function Page() {
  return <SchedulesPage />;
}
