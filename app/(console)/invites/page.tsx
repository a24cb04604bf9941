import type { Metadata } from "next";
import { MyInvitesPage } from "@/components/members/my-invites-page";

export const metadata: Metadata = { title: "My invites" };

export default function Page() {
  return <MyInvitesPage />;
}
