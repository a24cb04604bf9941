import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { TemplateDetail } from "@/components/templates/template-detail";

export const metadata: Metadata = { title: "Template" };

export default async function Page({ params }: { params: Promise<{ templateID: string }> }) {
  const { templateID } = await params;
  if (!z.uuid().safeParse(templateID).success) notFound();
  return <TemplateDetail templateId={templateID} />;
}
