import { z } from "zod";
import { text } from "@/lib/http/json-value";

export const MAX_URL = 2048;

/** Only absolute http(s) URLs: a tracked link must never become a javascript: or data: redirect. */
export const destinationUrl = z
  .string()
  .max(MAX_URL)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === "https:" || u.protocol === "http:") && !!u.hostname && !u.username && !u.password;
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL without credentials");

export const mintLinksInput = z
  .strictObject({
    campaign_id: text(200)
      .min(1)
      .meta({ description: "The campaign the links belong to (campaigns are configured elsewhere)." }),
    user_id: z.uuid().meta({ description: "The recipient: clicks are recorded against this user." }),
    urls: z.array(destinationUrl).min(1).max(100),
  })
  .meta({ id: "MintLinksInput" });

export const mintLinksOutput = z
  .object({
    campaign_id: z.string(),
    user_id: z.uuid(),
    links: z.array(z.object({ original_url: z.string(), tracked_url: z.string() })),
  })
  .meta({ id: "TrackedLinks" });
