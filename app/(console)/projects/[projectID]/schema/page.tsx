import type { Metadata } from "next";
import { SchemaPage } from "@/components/schema/schema-page";

export const metadata: Metadata = { title: "Schema" };

export default function Page() {
  return <SchemaPage />;
}
