"use client";
import { RecordList } from "@/components/pages/record-list";

export default function UsersPage() {
  return (
    <RecordList
      kind="users"
      title="Users"
      description="Your end users, newest first. Search by identifier, e-mail or data."
      modes={[
        { value: "external_id", label: "Identifier", placeholder: "external id, e.g. user-42" },
        { value: "email", label: "E-mail", placeholder: "ada@example.com" },
        { value: "data", label: "Data contains", placeholder: '{"plan": "pro"}' },
      ]}
      column={{
        header: "E-mail",
        cell: (r) =>
          r.email ? (
            <span title={r.email as string}>{r.email as string}</span>
          ) : (
            <span className="text-zinc-400">—</span>
          ),
      }}
    />
  );
}
