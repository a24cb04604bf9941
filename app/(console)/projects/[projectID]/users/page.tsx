"use client";
import { RecordList } from "@/components/records/record-list";

export default function UsersPage() {
  return <RecordList kind="users" />;
}
