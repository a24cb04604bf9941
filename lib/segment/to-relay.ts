import type { z } from "zod";
import { userEventInput } from "@/lib/events/schemas";
import { Invalid, type FieldError } from "@/lib/http/errors";
import { zodIssuesToFieldErrors } from "@/lib/http/zod-errors";
import type { Identifier } from "@/lib/identity/schemas";
import { organizationInput, type OrganizationInput } from "@/lib/organizations/schemas";
import { userInput, type UserInput } from "@/lib/users/schemas";
import type { SegmentMessage } from "./schemas";

/** What one Segment message asks of us, already validated by our own schemas. */
export type SegmentOp =
  | { kind: "user"; input: UserInput }
  | { kind: "group"; user: Identifier[]; organization: OrganizationInput }
  | { kind: "alias"; userId: string; previousId: string; path: string }
  | { kind: "event"; input: z.output<typeof userEventInput> };

/** Traits with a column of their own; every other trait goes to `data`. */
const LIFTED = ["email", "phone", "timezone", "locale"] as const;

/** Fields of a message that we map; everything else is kept in the event's `data.segment`. */
const MAPPED = new Set([
  "type",
  "userId",
  "anonymousId",
  "messageId",
  "timestamp",
  "event",
  "properties",
  "traits",
  "name",
  "category",
  "groupId",
  "previousId",
]);
/** Never stored: the write key is a secret (Segment allows it in the body). */
const DROPPED = new Set(["writeKey"]);

function identifiers(m: { userId?: string; anonymousId?: string }) {
  const ids: { source: string; external_id: string }[] = [];
  if (m.userId !== undefined) ids.push({ source: "default", external_id: m.userId });
  if (m.anonymousId !== undefined) ids.push({ source: "anonymous", external_id: m.anonymousId });
  return ids;
}

/**
 * Parses `value` with one of our schemas and, on failure, answers a 400 whose paths name the Segment
 * field the bad value came from (`rename` maps our path to theirs).
 */
function parseAs<S extends z.ZodType>(schema: S, value: unknown, rename: (path: string) => string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors: FieldError[] = zodIssuesToFieldErrors(result.error.issues).map((e) => ({ ...e, path: rename(e.path) }));
  throw new Invalid(
    `The body has ${errors.length} invalid field${errors.length === 1 ? "" : "s"}: ${errors
      .slice(0, 3)
      .map((e) => `${e.path} ${e.message}`)
      .join("; ")}`,
    { errors },
  );
}

/** `identifier[1].external_id` → `anonymousId` when the second identifier came from anonymousId. */
function renameIdentifier(path: string, m: { userId?: string }, prefix: string): string | null {
  const match = /^identifier(?:\[(\d+)\])?/.exec(path);
  if (!match) return null;
  const index = Number(match[1] ?? 0);
  return `${prefix}${index === 0 && m.userId !== undefined ? "userId" : "anonymousId"}`;
}

function renameUnder(path: string, ours: string, theirs: string): string | null {
  if (path === ours) return theirs;
  if (path.startsWith(`${ours}.`) || path.startsWith(`${ours}[`)) return theirs + path.slice(ours.length);
  return null;
}

/** Maps one validated Segment message; `prefix` is its path in the body (`batch[3].`, or `` for a single call). */
export function toRelayOp(m: SegmentMessage, prefix = ""): SegmentOp {
  switch (m.type) {
    case "identify": {
      const traits: Record<string, unknown> = { ...m.traits };
      const lifted: Record<string, unknown> = {};
      for (const f of LIFTED) {
        if (f in traits) {
          lifted[f] = traits[f];
          delete traits[f];
        }
      }
      const raw = { identifier: identifiers(m), ...lifted, ...(Object.keys(traits).length ? { data: traits } : {}) };
      const input = parseAs(
        userInput,
        raw,
        (p) => renameIdentifier(p, m, prefix) ?? renameUnder(p, "data", `${prefix}traits`) ?? `${prefix}traits.${p}`,
      );
      return { kind: "user", input };
    }
    case "group": {
      const { name, ...rest } = { ...m.traits } as Record<string, unknown>;
      const raw = {
        identifier: [{ source: "default", external_id: m.groupId }],
        ...(name !== undefined ? { name } : {}),
        ...(Object.keys(rest).length ? { data: rest } : {}),
      };
      const organization = parseAs(
        organizationInput,
        raw,
        (p) =>
          renameUnder(p, "identifier", `${prefix}groupId`) ??
          renameUnder(p, "data", `${prefix}traits`) ??
          `${prefix}traits.${p}`,
      );
      const user = parseAs(
        userInput,
        { identifier: identifiers(m) },
        (p) => renameIdentifier(p, m, prefix) ?? `${prefix}${p}`,
      ).identifier;
      return { kind: "group", user, organization };
    }
    case "alias":
      return { kind: "alias", userId: m.userId, previousId: m.previousId, path: `${prefix}previousId` };
    case "track":
    case "page":
    case "screen": {
      const envelope = Object.fromEntries(Object.entries(m).filter(([k]) => !MAPPED.has(k) && !DROPPED.has(k)));
      const name = m.type === "track" ? m.event : m.type === "page" ? "page_viewed" : "screen_viewed";
      const viewed =
        m.type === "track"
          ? {}
          : { ...(m.name != null ? { name: m.name } : {}), ...(m.category != null ? { category: m.category } : {}) };
      const data = { ...viewed, ...m.properties, ...(Object.keys(envelope).length ? { segment: envelope } : {}) };
      const raw = {
        name,
        identifier: identifiers(m),
        data,
        ...(m.messageId ? { id: m.messageId } : {}),
        ...(m.timestamp ? { timestamp: m.timestamp } : {}),
      };
      const input = parseAs(
        userEventInput,
        raw,
        (p) =>
          renameIdentifier(p, m, prefix) ??
          renameUnder(p, "name", `${prefix}${m.type === "track" ? "event" : "name"}`) ??
          (p.startsWith("data.segment.") ? prefix + p.slice("data.segment.".length) : null) ??
          renameUnder(p, "data", `${prefix}properties`) ??
          renameUnder(p, "id", `${prefix}messageId`) ??
          `${prefix}${p}`,
      );
      return { kind: "event", input };
    }
  }
}
