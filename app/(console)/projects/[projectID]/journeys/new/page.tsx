import type { Metadata } from "next";
import { JourneyEditor } from "@/components/journeys/journey-editor";
import { PageHeader } from "@/components/ui/states";

export const metadata: Metadata = { title: "New journey" };

export default function Page() {
  return (
    <>
      <PageHeader
        title="New journey"
        description="Say what lets users in: an event (with conditions) or a schedule offset firing. The entering event's data is kept as journey.<data key>."
      />
      <JourneyEditor />
    </>
  );
}
