"use client";
import { RecordList } from "@/components/records/record-list";

export default function UsersPage() {
  return (
    <RecordList
      kind="users"
      title="Users"
      description="Your end users, newest first. Search by identifier, e-mail or data."
      search={{
        identifier: "user-42",
        field: { value: "email", label: "E-mail", placeholder: "ada@example.com" },
        data: '{"plan": "pro"}',
      }}
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
