"use client";
import { RecordList } from "@/components/records/record-list";

export default function OrganizationsPage() {
  return (
    <RecordList
      kind="organizations"
      title="Organizations"
      description="The companies and teams your users belong to. Search by identifier, name or data."
      search={{
        identifier: "acme",
        field: { value: "name", label: "Name", placeholder: "Acme" },
        data: '{"tier": "enterprise"}',
      }}
      column={{ header: "Name", cell: (r) => (r.name as string | null) ?? <span className="text-zinc-400">—</span> }}
    />
  );
}
