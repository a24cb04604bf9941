import { z } from "zod";
import { text } from "@/lib/http/json-value";
import { rule } from "./rules";

export const listInput = z
  .strictObject({
    name: text().min(1),
    kind: z.enum(["dynamic", "static"]).meta({ description: "`dynamic`: membership follows `rules`. `static`: members are added and removed by hand." }),
    rules: rule.optional().meta({ description: "Required for dynamic lists, refused for static ones." }),
  })
  .superRefine((v, ctx) => {
    if (v.kind === "dynamic" && !v.rules) ctx.addIssue({ code: "custom", path: ["rules"], message: "a dynamic list needs rules" });
    if (v.kind === "static" && v.rules) ctx.addIssue({ code: "custom", path: ["rules"], message: "a static list has no rules" });
  })
  .meta({ id: "ListInput" });
export type ListInput = z.output<typeof listInput>;

export const listPatch = z.strictObject({ name: text().min(1).optional(), rules: rule.optional() }).meta({ id: "ListPatch" });
export type ListPatch = z.output<typeof listPatch>;

export const listUsersInput = z
  .strictObject({ user_ids: z.array(z.uuid()).min(1).max(1000) })
  .meta({ id: "ListUsersInput", description: "Users to add to or remove from a static list." });

export const listOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    kind: z.enum(["dynamic", "static"]),
    rules: z.unknown().nullable(),
    event_names: z.array(z.string()).meta({ description: "Event names whose arrival re-evaluates the rules for the affected user." }),
    windowed: z.boolean().meta({ description: "Has a time window: re-evaluated every minute so users leave as events age out." }),
    member_count: z.number().int(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "List" });
export type ListView = z.infer<typeof listOutput>;

export const listMemberOutput = z.object({ user_id: z.uuid(), added_at: z.iso.datetime() }).meta({ id: "ListMember" });
