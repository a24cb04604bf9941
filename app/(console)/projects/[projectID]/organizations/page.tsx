"use client";
import { RecordList } from "@/components/records/record-list";

export default function OrganizationsPage() {
  return <RecordList kind="organizations" />;
}
