import { OrganizationProfile } from "@/components/records/organization-profile";

export default async function Page({ params }: { params: Promise<{ organizationID: string }> }) {
  return <OrganizationProfile organizationId={(await params).organizationID} />;
}
