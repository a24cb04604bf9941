import type { Metadata } from "next";
import { ProvidersPage } from "@/components/pages/providers-page";

export const metadata: Metadata = { title: "Providers" };

export default function Page() {
  return <ProvidersPage />;
}
