import { z } from "zod";
import { organizationEventBatch, userEventBatch } from "@/lib/events/schemas";
import { organizationInput } from "@/lib/organizations/schemas";
import { assignmentInput, unassignInput } from "@/lib/schedules/schemas";
import { identifyInput, userBatchInput, userInput } from "@/lib/users/schemas";

/*
 * The Lunogram Python SDK (lunogram/py-sdk) builds request bodies from its response types: its
 * `Identifier` TypedDict (src/lunogram/app/types/identifier.py) is the identifier as a response carries it
 * (`id`, `created_at`, `updated_at` beside `source`, `external_id`, `metadata`), and its `random_user()`
 * seed helper (src/lunogram/client.py) sends those identifier fields plus the legacy top-level
 * `external_id` and `anonymous_id`. Our bodies are strict, so on the key-scoped mirror (the path that SDK
 * calls) exactly these fields are tolerated; anything else is still refused with the field's path.
 *   - `id`, `created_at`, `updated_at` of an identifier (on every body of the SDK's surface: users,
 *     events, schedules, organizations, since its event, schedule and organization types reuse
 *     `Identifier`), and a user's or organization's response-only `id`, `project_id`, `version`,
 *     `has_push_device` (users), `created_at`, `updated_at`: server-assigned, dropped.
 *   - top-level `external_id` / `anonymous_id`: not dropped (that would lose an identifier) but read as
 *     the identifiers `(default, external_id)` and `(anonymous, anonymous_id)`, the meaning they had in
 *     that API and the one our Segment mapping gives `userId` / `anonymousId`.
 */
/** Said in the OpenAPI document on each key-scoped path that tolerates these fields. */
export const ECHO_NOTE =
  "Identifiers may also carry the response-only `id`, `created_at`, `updated_at` (ignored), as the Lunogram Python SDK sends them.";
export const USER_ECHO_NOTE =
  "Also accepts what the Lunogram Python SDK sends: an identifier's response-only `id`, `created_at`, `updated_at` and a user's `id`, `project_id`, `version`, `has_push_device`, `created_at`, `updated_at` are ignored; top-level `external_id` / `anonymous_id` are read as the identifiers `(default, …)` / `(anonymous, …)`.";
export const ORGANIZATION_ECHO_NOTE =
  "An organization read back (`id`, `project_id`, `version`, `created_at`, `updated_at`) and identifiers with the response-only `id`, `created_at`, `updated_at` are accepted; those fields are ignored (the Lunogram Python SDK sends them).";

export const READ_ONLY_IDENTIFIER_FIELDS = ["id", "created_at", "updated_at"] as const;
export const READ_ONLY_USER_FIELDS = [
  "id",
  "project_id",
  "version",
  "has_push_device",
  "created_at",
  "updated_at",
] as const;
export const READ_ONLY_ORGANIZATION_FIELDS = ["id", "project_id", "version", "created_at", "updated_at"] as const;
export const LEGACY_USER_IDENTIFIERS = { external_id: "default", anonymous_id: "anonymous" } as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function without(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
}

function cleanIdentifiers(list: unknown): unknown {
  return Array.isArray(list) ? list.map((i) => (isObject(i) ? without(i, READ_ONLY_IDENTIFIER_FIELDS) : i)) : list;
}

/** Only plain-object bodies are rewritten; anything else reaches the strict schema unchanged and is refused there. */
function cleanUser(body: unknown): unknown {
  if (!isObject(body)) return body;
  const out = without(body, [...READ_ONLY_USER_FIELDS, ...Object.keys(LEGACY_USER_IDENTIFIERS)]);
  const legacy = Object.entries(LEGACY_USER_IDENTIFIERS).flatMap(([field, source]) =>
    field in body ? [{ source, external_id: body[field] }] : [],
  );
  const identifier = cleanIdentifiers(body.identifier);
  // A legacy value that is not a usable string is refused by the identifier schema, at `identifier[n]`.
  out.identifier = legacy.length
    ? [...(Array.isArray(identifier) ? identifier : identifier === undefined ? [] : [identifier]), ...legacy]
    : identifier;
  if (out.identifier === undefined) delete out.identifier;
  return out;
}

/** A body (or each item of a list body) whose `identifier` entries may carry the response-only fields. */
function cleanIdentify(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(cleanIdentify);
  return isObject(body) && "identifier" in body ? { ...body, identifier: cleanIdentifiers(body.identifier) } : body;
}

function cleanOrganization(body: unknown): unknown {
  return isObject(body) ? cleanIdentify(without(body, READ_ONLY_ORGANIZATION_FIELDS)) : body;
}

export const lunogramUserInput = z.preprocess(cleanUser, userInput);
export const lunogramUserBatchInput = z.preprocess((b) => (Array.isArray(b) ? b.map(cleanUser) : b), userBatchInput);
export const lunogramIdentifyInput = z.preprocess(cleanIdentify, identifyInput);
export const lunogramUserEventBatch = z.preprocess(cleanIdentify, userEventBatch);
export const lunogramOrganizationEventBatch = z.preprocess(cleanIdentify, organizationEventBatch);
export const lunogramOrganizationInput = z.preprocess(cleanOrganization, organizationInput);
export const lunogramAssignmentInput = z.preprocess(cleanIdentify, assignmentInput);
export const lunogramUnassignInput = z.preprocess(cleanIdentify, unassignInput);
