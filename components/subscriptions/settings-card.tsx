"use client";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { adminPath, apiFetch } from "@/components/console/api";
import { buttonClass } from "@/components/ui/button";
import { Banner, Section, inputClass } from "@/components/ui/states";
import { POLICY_LABELS } from "./labels";
import type { SubscriptionSettings as Settings } from "@/components/console/api-types";

/** The project's default for unset states and the Twilio token behind SMS STOP (admin only; the API enforces it). */
export function SettingsCard({ projectId, onChange }: { projectId: string; onChange: () => void }) {
  const settings = useQuery({
    queryKey: ["admin", projectId, "/subscription-groups/settings"],
    queryFn: () => apiFetch<Settings>(adminPath(projectId, "/subscription-groups/settings")),
  });
  const [token, setToken] = useState("");
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | null>(null);

  const save = async (patch: Record<string, unknown>, done: string) => {
    setMessage(null);
    try {
      await apiFetch(adminPath(projectId, "/subscription-groups/settings"), { method: "PATCH", body: patch });
      setMessage({ tone: "success", text: done });
      setToken("");
      await settings.refetch();
      onChange();
    } catch (e) {
      setMessage({ tone: "error", text: (e as Error).message });
    }
  };

  if (settings.isPending)
    return (
      <Section title="Project defaults">
        <p className="text-sm text-zinc-500">Loading…</p>
      </Section>
    );
  if (!settings.data)
    return (
      <Section title="Project defaults">
        <Banner tone="error">{settings.error?.message ?? "Could not load."}</Banner>
      </Section>
    );
  const s = settings.data;
  return (
    <Section title="Project defaults" description="What an unset state means, and how SMS opt-outs reach us.">
      <div className="space-y-6">
        {message ? <Banner tone={message.tone}>{message.text}</Banner> : null}
        <fieldset>
          <legend className="text-sm font-medium text-zinc-900">When a user has no state for a group</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {(["opt_out", "opt_in"] as const).map((p) => (
              <label
                key={p}
                className={`flex cursor-pointer gap-3 rounded-lg border p-3 text-sm ${s.default_policy === p ? "border-indigo-500 bg-indigo-50/50" : "border-zinc-200 hover:bg-zinc-50"}`}
              >
                <input
                  type="radio"
                  name="default_policy"
                  value={p}
                  checked={s.default_policy === p}
                  onChange={() => save({ default_policy: p }, "Default saved.")}
                  className="mt-0.5 accent-indigo-600"
                />
                <span>
                  <span className="block font-medium text-zinc-900">{POLICY_LABELS[p]}</span>
                  <span className="text-zinc-500">
                    {p === "opt_out" ? "Send until the user unsubscribes." : "Send only after the user subscribes."}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <p className="text-sm font-medium text-zinc-900">Twilio (SMS STOP / START)</p>
          <p className="mt-1 text-sm text-zinc-500">
            Set this URL as your number’s “A message comes in” webhook (HTTP POST):{" "}
            <code className="break-all rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-800">
              {s.sms_webhook_url}
            </code>
          </p>
          <form
            className="mt-3 flex flex-col gap-2 sm:flex-row"
            onSubmit={(e) => {
              e.preventDefault();
              void save({ twilio_auth_token: token }, "Twilio auth token saved.");
            }}
          >
            <label className="sr-only" htmlFor="twilio-token">
              Twilio auth token
            </label>
            <input
              id="twilio-token"
              type="password"
              autoComplete="off"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              placeholder={
                s.twilio_auth_token_set ? "•••••••• (set) — enter a new one to replace" : "Twilio auth token"
              }
              className={inputClass}
              minLength={8}
              required
            />
            <button type="submit" className={buttonClass()}>
              {s.twilio_auth_token_set ? "Replace" : "Save"}
            </button>
            {s.twilio_auth_token_set ? (
              <button
                type="button"
                className={buttonClass("ghost", "sm")}
                onClick={() => save({ twilio_auth_token: null }, "Twilio auth token removed.")}
              >
                Remove
              </button>
            ) : null}
          </form>
        </div>
      </div>
    </Section>
  );
}
