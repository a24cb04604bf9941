import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { z } from "zod";
import { TemplateReportPage } from "@/components/reports/template-report-page";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Template performance" };

/** Suspense: the page reads its period from the URL (useSearchParams). */
export default async function Page({ params }: { params: Promise<{ templateID: string }> }) {
  const { templateID } = await params;
  if (!z.uuid().safeParse(templateID).success) notFound();
  return (
    <Suspense fallback={<LoadingRows label="Loading the template's performance" />}>
      <TemplateReportPage templateId={templateID} />
    </Suspense>
  );
}
