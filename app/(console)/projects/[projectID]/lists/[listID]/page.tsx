import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { ListDetail } from "@/components/lists/list-detail";

export const metadata: Metadata = { title: "List" };

export default async function Page({ params }: { params: Promise<{ listID: string }> }) {
  const { listID } = await params;
  if (!z.uuid().safeParse(listID).success) notFound();
  return <ListDetail listId={listID} />;
}
