import Link from "next/link";
import { redirect } from "next/navigation";
import { auth } from "@/lib/access/auth";

export default async function Home() {
  if (await auth()) redirect("/projects");
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col justify-center gap-8 px-6 py-16">
      <div>
        <p className="text-sm font-medium uppercase tracking-widest text-indigo-600">Relay</p>
        <h1 className="mt-2 text-4xl font-semibold tracking-tight">Customer messaging, open source.</h1>
        <p className="mt-4 text-lg text-zinc-600">
          Send us your users, their companies and what they do. We store it per project, run every event through the
          pipeline that feeds segments and journeys, and fire your schedules on time.
        </p>
      </div>
      <div className="flex flex-wrap gap-3">
        <Link
          href="/signin"
          className="rounded-md bg-zinc-900 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-zinc-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
        >
          Sign in to the console
        </Link>
        <Link
          href="/docs/api"
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
        >
          API reference
        </Link>
        <a
          href="/api/openapi.json"
          className="rounded-md border border-zinc-300 bg-white px-4 py-2 text-sm font-medium text-zinc-800 shadow-sm hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          OpenAPI 3.1 document
        </a>
      </div>
    </main>
  );
}
