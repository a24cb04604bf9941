"use client";
import { RecordList } from "@/components/pages/record-list";

export default function OrganizationsPage() {
  return (
    <RecordList
      kind="organizations"
      title="Organizations"
      description="The companies and teams your users belong to. Search by identifier, name or data."
      modes={[
        { value: "external_id", label: "Identifier", placeholder: "external id, e.g. acme" },
        { value: "name", label: "Name", placeholder: "Acme" },
        { value: "data", label: "Data contains", placeholder: '{"tier": "enterprise"}' },
      ]}
      column={{ header: "Name", cell: (r) => (r.name as string | null) ?? <span className="text-zinc-400">—</span> }}
    />
  );
}
