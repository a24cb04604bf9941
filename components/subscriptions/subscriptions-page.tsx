"use client";
import { useState } from "react";
import { GroupsCard, type Group } from "./groups-card";
import { SettingsCard } from "./settings-card";
import { Banner, buttonClass, Card, inputClass } from "./ui";
import { useAdminGet } from "./use-admin-api";
import { UserSubscriptionsPanel } from "./user-subscriptions-panel";

/** Console page: subscription groups, the project's default, Twilio, and one user's states. */
export function SubscriptionsPage({ projectId }: { projectId: string }) {
  const groups = useAdminGet<{ data: Group[] }>(projectId, "/subscription-groups");
  const [userId, setUserId] = useState<string | null>(null);

  if (groups.error?.status === 401) {
    return <Banner tone="error">Sign in to the console to manage subscriptions.</Banner>;
  }
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">Subscriptions</h1>
        <p className="mt-1 text-sm text-zinc-500">Groups users subscribe to, what an unset state means, and each user’s choices with their history.</p>
      </header>
      {groups.error ? <Banner tone="error">{groups.error.message}</Banner> : null}
      {groups.data ? <GroupsCard projectId={projectId} groups={groups.data.data} reload={groups.reload} /> : null}
      <SettingsCard projectId={projectId} onChange={() => void groups.reload()} />
      <Card title="A user’s subscriptions" description="Look a user up by id to see and change their states.">
        <form
          className="mb-4 flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            setUserId(String(new FormData(e.currentTarget).get("user") ?? "").trim() || null);
          }}
        >
          <label htmlFor="user-id" className="sr-only">User id</label>
          <input id="user-id" name="user" placeholder="User id (UUID)" className={inputClass} pattern="[0-9a-fA-F-]{36}" />
          <button type="submit" className={buttonClass}>Show</button>
        </form>
        {userId ? <UserSubscriptionsPanel key={userId} projectId={projectId} userId={userId} /> : null}
      </Card>
    </div>
  );
}
