"use client";
import { useState } from "react";
import { GroupsCard, type Group } from "./groups-card";
import { SettingsCard } from "./settings-card";
import { buttonClass } from "@/components/ui/button";
import { Banner, Section, inputClass } from "@/components/ui/states";
import { useQuery } from "@tanstack/react-query";
import { adminPath, apiFetch, type ApiError } from "@/components/console/api";
import { UserSubscriptionsPanel } from "./user-subscriptions-panel";

/** Console page: subscription groups, the project's default, Twilio, and one user's states. */
export function SubscriptionsPage({ projectId }: { projectId: string }) {
  const groups = useQuery({
    queryKey: ["admin", projectId, "/subscription-groups"],
    queryFn: () => apiFetch<{ data: Group[] }>(adminPath(projectId, "/subscription-groups")),
  });
  const [userId, setUserId] = useState<string | null>(null);
  const [lookupError, setLookupError] = useState<string | null>(null);

  /** A user id as is; an e-mail or an external id (any source) is looked up first. */
  const lookUp = async (input: string) => {
    setLookupError(null);
    setUserId(null);
    if (!input) return;
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(input)) return setUserId(input);
    const query = input.includes("@")
      ? `email=${encodeURIComponent(input)}`
      : `external_id=${encodeURIComponent(input)}`;
    try {
      const found = await apiFetch<{ data: { id: string }[] }>(adminPath(projectId, `/users?${query}&limit=2`));
      if (found.data.length === 1) setUserId(found.data[0]!.id);
      else setLookupError(found.data.length ? "Several users match; use the user id." : "No user matches.");
    } catch (e) {
      setLookupError((e as Error).message);
    }
  };

  if ((groups.error as ApiError | null)?.status === 401) {
    return <Banner tone="error">Sign in to the console to manage subscriptions.</Banner>;
  }
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">Subscriptions</h1>
        <p className="mt-1 text-sm text-zinc-500">
          Groups users subscribe to, what an unset state means, and each user’s choices with their history.
        </p>
      </header>
      {groups.error ? <Banner tone="error">{groups.error.message}</Banner> : null}
      {groups.data ? (
        <GroupsCard
          projectId={projectId}
          groups={groups.data.data}
          reload={async () => void (await groups.refetch())}
        />
      ) : null}
      <SettingsCard projectId={projectId} onChange={() => void groups.refetch()} />
      <Section
        title="A user’s subscriptions"
        description="Look a user up by id, e-mail or external id to see and change their states."
      >
        <form
          className="mb-4 flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void lookUp(String(new FormData(e.currentTarget).get("user") ?? "").trim());
          }}
        >
          <label htmlFor="user-id" className="sr-only">
            User id, e-mail or external id
          </label>
          <input
            id="user-id"
            name="user"
            placeholder="User id, e-mail or external id"
            className={inputClass}
            maxLength={1024}
          />
          <button type="submit" className={buttonClass()}>
            Show
          </button>
        </form>
        {lookupError ? <Banner tone="error">{lookupError}</Banner> : null}
        {userId ? <UserSubscriptionsPanel key={userId} projectId={projectId} userId={userId} /> : null}
      </Section>
    </div>
  );
}
