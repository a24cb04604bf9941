import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { headers } from "next/headers";
import { connection } from "next/server";
import { PEER_HEADER } from "@/lib/http/client-address";
import { outboxPageVisible, readOutbox } from "@/lib/mail/outbox";

export const metadata: Metadata = { title: "Dev outbox", robots: { index: false } };

/** Development only, to a browser on this machine: the mail the console would have sent. Otherwise 404. */
export default async function OutboxPage() {
  await connection();
  if (!outboxPageVisible((await headers()).get(PEER_HEADER))) notFound();
  const mails = await readOutbox();
  return (
    <main className="mx-auto max-w-3xl px-6 py-10">
      <h1 className="text-xl font-semibold tracking-tight">Outbox</h1>
      <p className="mt-1 text-sm text-zinc-500">
        No SMTP_URL is set, so mail lands here instead of being sent. Newest first.
      </p>
      {mails.length === 0 ? (
        <p className="mt-8 rounded-xl border border-dashed border-zinc-300 bg-white px-6 py-10 text-center text-sm text-zinc-500">
          No mail yet.
        </p>
      ) : (
        <ul className="mt-6 space-y-4">
          {mails.map((m) => (
            <li key={m.id} className="rounded-xl border border-zinc-200 bg-white p-5 shadow-sm">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="font-medium">{m.subject}</p>
                <time className="text-xs text-zinc-500" dateTime={m.sentAt}>
                  {new Date(m.sentAt).toLocaleString()}
                </time>
              </div>
              <p className="text-sm text-zinc-500">to {m.to}</p>
              <pre className="mt-3 whitespace-pre-wrap break-all font-sans text-sm text-zinc-700">
                {m.text.split(/(https?:\/\/\S+)/g).map((part, i) =>
                  /^https?:\/\//.test(part) ? (
                    <a key={i} href={part} className="text-indigo-600 underline">
                      {part}
                    </a>
                  ) : (
                    part
                  ),
                )}
              </pre>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
