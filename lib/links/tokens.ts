import { z } from "zod";
import { signToken, verifyToken } from "@/lib/signing/tokens";
import { destinationUrl } from "./schemas";

const linkPayload = z.object({
  p: z.uuid(),
  c: z.string().min(1),
  u: z.uuid(),
  url: destinationUrl,
  m: z.uuid().optional(),
});

export interface LinkClaim {
  projectId: string;
  campaignId: string;
  userId: string;
  url: string;
  /** The message the link was sent in (links minted through the API belong to none). */
  messageId?: string;
}

/** Signed (project, campaign, user, URL, message): the destination cannot be swapped without the server secret. */
export function linkToken(c: LinkClaim): string {
  return signToken("link", {
    p: c.projectId,
    c: c.campaignId,
    u: c.userId,
    url: c.url,
    ...(c.messageId ? { m: c.messageId } : {}),
  });
}

/** The claim when intact; null for anything unsigned, tampered, or whose URL is not http(s). */
export function readLinkToken(token: string): LinkClaim | null {
  const parsed = linkPayload.safeParse(verifyToken("link", token));
  return parsed.success
    ? {
        projectId: parsed.data.p,
        campaignId: parsed.data.c,
        userId: parsed.data.u,
        url: parsed.data.url,
        ...(parsed.data.m ? { messageId: parsed.data.m } : {}),
      }
    : null;
}
