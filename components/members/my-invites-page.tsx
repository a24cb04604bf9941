"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiFetch } from "@/components/console/api";
import { Button, buttonClass } from "@/components/ui/button";
import { Badge, Card, EmptyState, ErrorBanner, PageHeader } from "@/components/ui/states";
import { QueryStatus } from "@/components/ui/query-state";
import { formatRelative } from "@/components/ui/format";
import type { MyInvite } from "@/components/console/api-types";

export function MyInvitesPage() {
  const qc = useQueryClient();
  const router = useRouter();
  const q = useQuery({ queryKey: ["my-invites"], queryFn: () => apiFetch<{ data: MyInvite[] }>("/api/invites/mine") });
  const [accepted, setAccepted] = useState<{ project_id: string; project_name: string; role: string } | null>(null);
  const accept = useMutation({
    mutationFn: (id: string) => apiFetch(`/api/invites/${id}/accept`, { method: "POST" }),
    onSuccess: (res) => {
      setAccepted(res);
      qc.invalidateQueries({ queryKey: ["my-invites"] });
      qc.invalidateQueries({ queryKey: ["my-projects"] });
      router.refresh();
    },
  });
  return (
    <>
      <PageHeader
        title="My invites"
        description="Invitations sent to the address you're signed in with. Accepting adds you to the project with the invited role."
      />
      {accepted && (
        <div
          role="status"
          className="mb-4 flex items-center justify-between rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900"
        >
          <span>
            You joined <strong>{accepted.project_name}</strong> as {accepted.role}.
          </span>
          <Link href={`/projects/${accepted.project_id}/users`} className={buttonClass("secondary", "sm")}>
            Open project
          </Link>
        </div>
      )}
      {accept.isError && <ErrorBanner className="mb-4" message={accept.error.message} />}
      <QueryStatus q={q} what="invitations" rows={2} />
      {q.data && q.data.data.length === 0 && (
        <EmptyState title="No pending invitations">
          When a project admin invites your address, it shows up here.
        </EmptyState>
      )}
      {q.data && q.data.data.length > 0 && (
        <Card>
          <ul className="divide-y divide-zinc-100">
            {q.data.data.map((i) => (
              <li key={i.id} className="flex flex-wrap items-center justify-between gap-4 px-5 py-4">
                <div>
                  <p className="font-medium text-zinc-900">
                    {i.project_name} <span className="font-normal text-zinc-400">· {i.org_name}</span>
                  </p>
                  <p className="mt-0.5 text-sm text-zinc-500">
                    <Badge tone="indigo">{i.role}</Badge>{" "}
                    <span className="ml-1">
                      invited by {i.invited_by ?? "an API key"} · expires {formatRelative(i.expires_at)}
                    </span>
                  </p>
                </div>
                <Button
                  onClick={() => accept.mutate(i.id)}
                  disabled={accept.isPending}
                  aria-label={`Accept invitation to ${i.project_name}`}
                >
                  Accept
                </Button>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </>
  );
}
