import type { Metadata } from "next";
import { Suspense } from "react";
import { RequestLogPage } from "@/components/request-log/request-log-page";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Request log" };

export default function Page() {
  return (
    <Suspense fallback={<LoadingRows label="Loading requests" />}>
      <RequestLogPage />
    </Suspense>
  );
}
