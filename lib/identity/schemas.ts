import { z } from "zod";
import { dataObject, text } from "@/lib/http/json-value";
import { pairKey } from "./pair-key";

export const MAX_IDENTIFIERS = 20;

/**
 * One identifier on the wire. `externalId` (the SDK spelling) is accepted as an alias of `external_id`;
 * output is always snake_case.
 */
export const identifierInput = z
  .strictObject({
    external_id: text().min(1).optional().meta({ description: "The identifier value." }),
    externalId: text().min(1).optional().meta({ description: "Alias of `external_id` (SDK spelling)." }),
    source: text().min(1).optional().meta({ description: "Namespace of the identifier. Default `default`." }),
    metadata: dataObject("metadata")
      .nullable()
      .optional()
      .meta({ description: "Free-form data about this identifier; `null` (as responses carry it) means none." }),
  })
  .superRefine((v, ctx) => {
    if (v.external_id === undefined && v.externalId === undefined) {
      ctx.addIssue({ code: "custom", path: ["external_id"], message: "external_id is required" });
    } else if (v.external_id !== undefined && v.externalId !== undefined && v.external_id !== v.externalId) {
      ctx.addIssue({ code: "custom", path: ["externalId"], message: "externalId and external_id disagree" });
    }
  })
  .transform((v) => ({
    source: v.source ?? "default",
    external_id: (v.external_id ?? v.externalId)!,
    ...(v.metadata ? { metadata: v.metadata } : {}),
  }))
  .meta({ id: "IdentifierInput" });

export type Identifier = z.output<typeof identifierInput>;

/** At least one identifier, at most 20; repeats of the same (source, external_id) collapse into one. */
export const identifierList = z
  .array(identifierInput)
  .min(1, "at least one identifier is required")
  .max(MAX_IDENTIFIERS, `at most ${MAX_IDENTIFIERS} identifiers`)
  .transform((list) => {
    // Nearly every body names one identifier: nothing to collapse, and no map to build.
    if (list.length === 1) return list;
    const seen = new Map<string, Identifier>();
    for (const id of list) {
      const k = pairKey(id.source, id.external_id);
      const prev = seen.get(k);
      seen.set(k, prev ? { ...prev, ...id, metadata: { ...prev.metadata, ...id.metadata } } : id);
    }
    return [...seen.values()];
  });

export const identifierOutput = z
  .object({ source: z.string(), external_id: z.string(), metadata: z.record(z.string(), z.unknown()).nullable() })
  .meta({ id: "Identifier" });
