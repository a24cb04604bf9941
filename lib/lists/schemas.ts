import { z } from "zod";
import { text } from "@/lib/http/json-value";
import { tagList } from "@/lib/http/tags";
import { rule } from "./rule-schema";

export const listInput = z
  .strictObject({
    name: text().min(1),
    kind: z
      .enum(["dynamic", "static"])
      .meta({ description: "`dynamic`: membership follows `rules`. `static`: members are added and removed by hand." }),
    rules: rule.optional().meta({ description: "Required for dynamic lists, refused for static ones." }),
    tags: tagList.default([]),
  })
  .superRefine((v, ctx) => {
    if (v.kind === "dynamic" && !v.rules)
      ctx.addIssue({ code: "custom", path: ["rules"], message: "a dynamic list needs rules" });
    if (v.kind === "static" && v.rules)
      ctx.addIssue({ code: "custom", path: ["rules"], message: "a static list has no rules" });
  })
  .meta({ id: "ListInput" });
export type ListInput = z.output<typeof listInput>;

export const listPatch = z
  .strictObject({ name: text().min(1).optional(), rules: rule.optional(), tags: tagList.optional() })
  .meta({ id: "ListPatch" });
export type ListPatch = z.output<typeof listPatch>;

const externalRef = z
  .strictObject({ source: text().min(1).default("default"), external_id: text().min(1) })
  .meta({ id: "UserExternalRef", description: "A user named by one of its identifiers." });

export const listUsersInput = z
  .strictObject({
    user_ids: z.array(z.uuid()).max(1000).optional(),
    identifiers: z
      .array(externalRef)
      .max(1000)
      .optional()
      .meta({ description: "Users named by identifier (e.g. from a CSV of external ids); unknown ones are ignored." }),
  })
  .refine((v) => (v.user_ids?.length ?? 0) + (v.identifiers?.length ?? 0) >= 1, {
    message: "name at least one user in user_ids or identifiers",
    path: ["user_ids"],
  })
  .refine((v) => (v.user_ids?.length ?? 0) + (v.identifiers?.length ?? 0) <= 1000, {
    message: "at most 1,000 users per call",
    path: ["identifiers"],
  })
  .meta({ id: "ListUsersInput", description: "Users to add to or remove from a static list, by id or by identifier." });
export type ListUsersInput = z.output<typeof listUsersInput>;

export const listPreviewInput = z.strictObject({ rules: rule }).meta({ id: "ListPreviewInput" });

export const listPreviewOutput = z
  .object({
    count: z.number().int().meta({ description: "Users matching the rules now (an estimate when `estimated`)." }),
    estimated: z.boolean().meta({
      description:
        "The project has 20,000 users or more: `count` is scaled up from a random sample of about 5,000 of its users.",
    }),
    sample: z
      .array(
        z.object({
          id: z.uuid(),
          email: z.string().nullable(),
          external_id: z.string().nullable(),
          created_at: z.iso.datetime(),
        }),
      )
      .max(20),
    took_ms: z.number().int(),
  })
  .meta({ id: "ListPreview" });
export type ListPreview = z.infer<typeof listPreviewOutput>;

export const listHistoryOutput = z
  .object({
    event_id: z.uuid(),
    change: z.enum(["added", "removed"]),
    user_id: z.uuid().nullable(),
    at: z.iso.datetime(),
  })
  .meta({ id: "ListHistoryEntry" });

export const listOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    kind: z.enum(["dynamic", "static"]),
    rules: z.unknown().nullable(),
    event_names: z
      .array(z.string())
      .meta({ description: "Event names whose arrival re-evaluates the rules for the affected user." }),
    windowed: z
      .boolean()
      .meta({ description: "Has a time window: re-evaluated every minute so users leave as events age out." }),
    tags: z.array(z.string()),
    member_count: z.number().int().meta({ description: "Members, counted up to 10,000: see `member_count_capped`." }),
    member_count_capped: z
      .boolean()
      .meta({ description: "The list has more than 10,000 members (`member_count` is then 10,000)." }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "List" });
export type ListView = z.infer<typeof listOutput>;

export const listMemberOutput = z.object({ user_id: z.uuid(), added_at: z.iso.datetime() }).meta({ id: "ListMember" });
