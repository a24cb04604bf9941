import { createHash, timingSafeEqual } from "node:crypto";
import { Unauthorized } from "@/lib/http/errors";
import type { FeedbackReport } from "./report";

/** What a verified webhook body comes to: the reports it carries (the message id still to be found). */
export type WebhookReport = Omit<FeedbackReport, "messageId"> & { relayMessageId: string | null };

export interface WebhookRequest {
  headers: Headers;
  body: Buffer;
}

/** Signed timestamps older than this (or as far in the future) are refused: a captured request is not replayed later. */
export const MAX_SKEW_SECONDS = 5 * 60;

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;

/** Relay's message id from the Message-ID Relay set (`<id@host>`), with or without its brackets. */
export function relayIdFromMessageId(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const m = /^\s*<?([^@<>\s]+)@/.exec(value);
  return m?.[1]?.match(UUID) && m[1].length === 36 ? m[1].toLowerCase() : null;
}

/** Relay's message id as such (Postmark's metadata). */
export function relayIdAsIs(value: unknown): string | null {
  return typeof value === "string" && value.length === 36 && UUID.test(value) ? value.toLowerCase() : null;
}

export function assertFresh(seconds: number, nowMs = Date.now()): void {
  if (!Number.isFinite(seconds) || Math.abs(nowMs / 1000 - seconds) > MAX_SKEW_SECONDS)
    throw new Unauthorized("The signed timestamp is missing or more than 5 minutes off.");
}

/** Equal strings in constant time (both hashed first, so their lengths say nothing either). */
export function sameSecret(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}

export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}

export const str = (v: unknown): string | null => (typeof v === "string" && v ? v.slice(0, 1000) : null);

export function dateOf(v: unknown): Date | undefined {
  const d = typeof v === "number" ? new Date(v * 1000) : typeof v === "string" ? new Date(v) : undefined;
  return d && !Number.isNaN(d.getTime()) ? d : undefined;
}

/** A service's parsed JSON: each field is type-checked where it is read (str, dateOf, comparisons). */
// biome-ignore lint/suspicious/noExplicitAny: untrusted JSON read field by field, each value checked where read
export type Parsed = Record<string, any>;
