import { z } from "zod";

/** `?data=<url-encoded JSON object>`: a containment filter (`data @> filter`). */
export const jsonFilter = z
  .string()
  .max(4096)
  .transform((raw, ctx) => {
    try {
      const value = JSON.parse(raw);
      if (value && typeof value === "object" && !Array.isArray(value) && !JSON.stringify(value).includes("\\u0000")) {
        return value as Record<string, unknown>;
      }
    } catch {}
    ctx.addIssue({ code: "custom", message: "must be a URL-encoded JSON object, like %7B%22plan%22%3A%22pro%22%7D" });
    return z.NEVER;
  });
