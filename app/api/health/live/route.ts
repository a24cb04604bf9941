export const dynamic = "force-dynamic";

/** Liveness: the process answers. Touches nothing else, so a database outage never restarts the web. */
export function GET() {
  return Response.json(
    {
      status: "ok",
      checks: { process: { ok: true, detail: `pid ${process.pid}, up ${Math.round(process.uptime())} s` } },
    },
    { headers: { "cache-control": "no-store" } },
  );
}
