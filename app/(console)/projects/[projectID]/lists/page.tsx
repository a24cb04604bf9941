import type { Metadata } from "next";
import { ListsPage } from "@/components/lists/lists-page";

export const metadata: Metadata = { title: "Lists" };

export default function Page() {
  return <ListsPage />;
}
