import type { Metadata } from "next";
import { ImportsPage } from "@/components/pages/imports-page";

export const metadata: Metadata = { title: "Imports" };

export default function Page() {
  return <ImportsPage />;
}
