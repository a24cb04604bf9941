import { appendFile, mkdir, readFile } from "node:fs/promises";
import path from "node:path";

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: string;
}

/** Where development mail goes when no SMTP_URL is set: one JSON object per line. */
export function outboxPath(): string {
  return process.env.OUTBOX_PATH ?? path.join(process.cwd(), ".data", "outbox.jsonl");
}

/**
 * The outbox exists for development only. Production never serves or fills it unless the explicit
 * test-only flag RELAY_TEST_OUTBOX=1 is set (kept so a production build can be exercised without SMTP).
 */
export function outboxEnabled(): boolean {
  return process.env.NODE_ENV !== "production" || process.env.RELAY_TEST_OUTBOX === "1";
}

/**
 * Whether /dev/outbox may show the outbox to this caller: never in production (whatever else is set), and
 * in development only to a loopback peer, the TCP address itself (a forwarded header could claim anything):
 * the page shows working sign-in links.
 */
export function outboxPageVisible(peer: string | null): boolean {
  if (process.env.NODE_ENV === "production" || !outboxEnabled()) return false;
  const address = (peer ?? "").replace(/^::ffff:/i, "");
  return address === "::1" || /^127\.\d+\.\d+\.\d+$/.test(address);
}

export async function appendToOutbox(mail: Omit<OutboxMail, "id" | "sentAt">): Promise<void> {
  const file = outboxPath();
  await mkdir(path.dirname(file), { recursive: true });
  const entry: OutboxMail = { id: crypto.randomUUID(), sentAt: new Date().toISOString(), ...mail };
  await appendFile(file, `${JSON.stringify(entry)}\n`);
}

/** Newest first. */
export async function readOutbox(limit = 50): Promise<OutboxMail[]> {
  let text = "";
  try {
    text = await readFile(outboxPath(), "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as OutboxMail)
    .reverse()
    .slice(0, limit);
}
