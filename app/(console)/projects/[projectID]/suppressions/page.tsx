import type { Metadata } from "next";
import { SuppressionsPage } from "@/components/suppressions/suppressions-page";

export const metadata: Metadata = { title: "Suppressions" };

export default function Page() {
  return <SuppressionsPage />;
}
