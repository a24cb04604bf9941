import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { ChannelBadge, Notice, PublicShell } from "@/app/_components/public-shell";
import { getDb } from "@/db/client";
import { describeLink } from "@/lib/subscriptions/describe-link";
import { unsubscribePath } from "@/lib/subscriptions/tokens";

// The token is a credential: keep it out of search indexes and out of Referer headers.
export const metadata: Metadata = {
  title: "Unsubscribe",
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

type Props = {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** GET never changes anything (link scanners follow links); the button POSTs to the signed URL. */
export default async function UnsubscribePage({ params, searchParams }: Props) {
  await connection();
  const { token } = await params;
  const query = await searchParams;
  const link = await describeLink({ db: getDb() }, { kind: "unsubscribe", token });
  if (!link?.group) notFound();
  const { group } = link;
  const address = group.channel === "sms" ? (link.phone ? `the number ending in ${link.phone}` : null) : link.email;
  const done = query.done === "1" || (group.state === "unsubscribed" && query.error !== "1");

  if (done) {
    return (
      <PublicShell project={link.project}>
        <div
          className="flex h-11 w-11 items-center justify-center rounded-full bg-emerald-100 text-emerald-700"
          aria-hidden
        >
          <svg viewBox="0 0 20 20" fill="currentColor" className="h-6 w-6" role="img" aria-label="Unsubscribed">
            <path
              fillRule="evenodd"
              d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z"
              clipRule="evenodd"
            />
          </svg>
        </div>
        <h1 className="mt-4 text-xl font-semibold text-zinc-900">You’re unsubscribed from {group.group}</h1>
        <p className="mt-2 text-sm leading-6 text-zinc-600">
          {query.done === "1" ? "Done." : "You were already unsubscribed."} You won’t receive {group.group} messages
          {address ? (
            <>
              {" "}
              at <span className="font-medium text-zinc-800">{address}</span>
            </>
          ) : null}{" "}
          any more. It can take a moment for messages already on their way to stop.
        </p>
        <a
          href={link.preferencesPath}
          className="mt-6 inline-flex text-sm font-medium text-indigo-600 hover:text-indigo-500 focus:outline-none focus-visible:underline"
        >
          Unsubscribed by mistake? Manage all your preferences →
        </a>
      </PublicShell>
    );
  }

  return (
    <PublicShell project={link.project}>
      {query.error === "1" ? <Notice tone="error">We couldn’t save that. Please try again.</Notice> : null}
      <div className="flex items-center gap-2">
        <ChannelBadge channel={group.channel} />
      </div>
      <h1 className="mt-3 text-xl font-semibold text-zinc-900">Unsubscribe from {group.group}?</h1>
      <p className="mt-2 text-sm leading-6 text-zinc-600">
        You’ll stop receiving {group.group} messages
        {address ? (
          <>
            {" "}
            at <span className="font-medium text-zinc-800">{address}</span>
          </>
        ) : null}
        . Other messages from {link.project} are not affected.
      </p>
      {group.description ? <p className="mt-2 text-sm leading-6 text-zinc-500">{group.description}</p> : null}
      <form
        method="post"
        action={unsubscribePath(token)}
        className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center"
      >
        <input type="hidden" name="from" value="page" />
        <button
          type="submit"
          className="inline-flex justify-center rounded-lg bg-zinc-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-zinc-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
        >
          Unsubscribe
        </button>
        <a
          href={link.preferencesPath}
          className="inline-flex justify-center rounded-lg px-4 py-2.5 text-sm font-medium text-zinc-700 hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          Manage all preferences
        </a>
      </form>
    </PublicShell>
  );
}
