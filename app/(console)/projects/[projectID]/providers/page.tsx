import type { Metadata } from "next";
import { ProvidersPage } from "@/components/providers/providers-page";

export const metadata: Metadata = { title: "Providers" };

export default function Page() {
  return <ProvidersPage />;
}
