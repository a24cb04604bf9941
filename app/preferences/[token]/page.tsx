import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { Notice, PublicShell } from "@/app/_components/public-shell";
import { getDb } from "@/db/client";
import { describeLink } from "@/lib/subscriptions/describe-link";
import { shownState } from "@/lib/subscriptions/group-view";
import { GroupChoice } from "./group-choice";

// The token is a credential: keep it out of search indexes and out of Referer headers.
export const metadata: Metadata = {
  title: "Your preferences",
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

type Props = {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** The preference center: every group with its state, all changed in one form that works without JavaScript. */
export default async function PreferencesPage({ params, searchParams }: Props) {
  await connection();
  const { token } = await params;
  const query = await searchParams;
  const link = await describeLink({ db: getDb() }, { kind: "preferences", token });
  if (!link) notFound();
  const hasSms = link.subscriptions.some((s) => s.channel === "sms");
  const contact = [link.email, hasSms && link.phone ? `the number ending in ${link.phone}` : null]
    .filter(Boolean)
    .join(" and ");
  const smsStopped = link.subscriptions.some((s) => s.channel === "sms" && s.channel_opted_out);

  return (
    <PublicShell project={link.project}>
      {query.error === "1" ? <Notice tone="error">We couldn’t save your preferences. Please try again.</Notice> : null}
      {query.saved !== undefined && query.error === undefined ? (
        <Notice tone="success">
          {query.all === "unsubscribed" ? "You’re unsubscribed from everything below." : "Your preferences are saved."}
        </Notice>
      ) : null}
      <h1 className="text-xl font-semibold text-zinc-900">Your subscriptions</h1>
      <p className="mt-1 text-sm leading-6 text-zinc-600">
        Choose what {link.project} may send you
        {contact ? (
          <>
            {" "}
            at <span className="font-medium text-zinc-800">{contact}</span>
          </>
        ) : null}
        .
      </p>
      {smsStopped ? (
        <p className="mt-4 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">
          You replied STOP to our text messages, so we send you no texts. Reply START to that number to receive them
          again.
        </p>
      ) : null}
      {link.subscriptions.length === 0 ? (
        <p className="mt-6 text-sm text-zinc-500">There’s nothing to manage yet.</p>
      ) : (
        <form method="post" action={`/api/preferences/${token}`} className="mt-6">
          <ul className="divide-y divide-zinc-100 border-y border-zinc-100">
            {link.subscriptions.map((s) => (
              <li key={s.group_id}>
                <GroupChoice
                  id={s.group_id}
                  name={s.group}
                  description={s.description}
                  channel={s.channel}
                  chosen={shownState(s)}
                />
              </li>
            ))}
          </ul>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
            <button
              type="submit"
              name="all"
              value="unsubscribed"
              className="inline-flex justify-center rounded-lg px-3 py-2.5 text-sm font-medium text-red-700 hover:bg-red-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-500"
            >
              Unsubscribe from all
            </button>
            <button
              type="submit"
              className="inline-flex justify-center rounded-lg bg-zinc-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-zinc-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
            >
              Save preferences
            </button>
          </div>
        </form>
      )}
    </PublicShell>
  );
}
