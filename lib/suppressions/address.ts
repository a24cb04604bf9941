import type { SendChannel } from "@/db/schema";

/**
 * The form an address is kept and compared in: e-mail lower-cased (receivers do not fold local parts in
 * practice, and a list that misses `Bob@` for `bob@` would send to a known bounce), numbers as sent.
 */
export function normalAddress(channel: SendChannel, address: string): string {
  return channel === "email" ? address.trim().toLowerCase() : address.trim();
}
