import type { Metadata } from "next";
import { Suspense } from "react";
import { MessagesPage } from "@/components/messages/messages-page";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Messages" };

/** Suspense: the page reads its filters from the URL (useSearchParams). */
export default function Page() {
  return (
    <Suspense fallback={<LoadingRows label="Loading messages" />}>
      <MessagesPage />
    </Suspense>
  );
}
