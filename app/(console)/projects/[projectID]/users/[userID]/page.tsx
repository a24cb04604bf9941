import { UserProfile } from "@/components/records/user-profile";

export default async function Page({ params }: { params: Promise<{ userID: string }> }) {
  return <UserProfile userId={(await params).userID} />;
}
