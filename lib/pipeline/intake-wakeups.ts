import postgres from "postgres";
import { databaseUrl } from "@/db/client";
import { INTAKE_CHANNEL } from "@/lib/queue/jobs";

/**
 * Calls `wake` whenever events are accepted or recorded (NOTIFY on INTAKE_CHANNEL), on a dedicated
 * connection: LISTEN holds its connection, so it cannot share the pool. Returns a function that closes it.
 */
export async function listenForIntake(wake: () => void): Promise<() => Promise<void>> {
  const listener = postgres(databaseUrl(), { max: 1, onnotice: () => {} });
  await listener.listen(INTAKE_CHANNEL, wake);
  return () => listener.end({ timeout: 2 });
}
