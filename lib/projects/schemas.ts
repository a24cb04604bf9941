import { z } from "zod";

export const createConsoleProjectBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    org_id: z
      .uuid()
      .optional()
      .meta({ description: "An org you own or administer; default your first such org, or a new one." }),
    org_name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "Name of the new org when you have none." }),
  })
  .strict()
  .meta({ id: "CreateProject" });

export const myProjectOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    org_id: z.uuid(),
    org_name: z.string(),
    role: z.enum(["support", "client", "editor", "admin"]),
    inherited: z.boolean().meta({ description: "True when the role comes from being an org owner or admin." }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "MyProject" });

export const myOrgOutput = z
  .object({ id: z.uuid(), name: z.string(), role: z.enum(["member", "admin", "owner"]) })
  .meta({ id: "MyOrg" });

export type MyProject = z.infer<typeof myProjectOutput>;
