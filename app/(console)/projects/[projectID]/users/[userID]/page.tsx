import { UserProfile } from "@/components/pages/user-profile";

export default async function Page({ params }: { params: Promise<{ userID: string }> }) {
  return <UserProfile userId={(await params).userID} />;
}
