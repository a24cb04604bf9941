import type { Metadata } from "next";
import { SchemaPage } from "@/components/pages/schema-page";

export const metadata: Metadata = { title: "Schema" };

export default function Page() {
  return <SchemaPage />;
}
