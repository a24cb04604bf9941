import { z } from "zod";
import { signToken, verifyToken } from "@/lib/signing/tokens";

const unsubscribePayload = z.object({ p: z.uuid(), u: z.uuid(), g: z.uuid(), m: z.uuid().optional() });
const preferencesPayload = z.object({ p: z.uuid(), u: z.uuid() });

export interface UnsubscribeClaim {
  projectId: string;
  userId: string;
  groupId: string;
  /** The message the link came in, credited with the unsubscribe (absent for links of no message). */
  messageId?: string;
}

/** Signed (project, user, group, message): changing any of them breaks the signature. */
export function unsubscribeToken(c: UnsubscribeClaim): string {
  return signToken("unsubscribe", {
    p: c.projectId,
    u: c.userId,
    g: c.groupId,
    ...(c.messageId ? { m: c.messageId } : {}),
  });
}

export function readUnsubscribeToken(token: string): UnsubscribeClaim | null {
  const parsed = unsubscribePayload.safeParse(verifyToken("unsubscribe", token));
  if (!parsed.success) return null;
  const { p, u, g, m } = parsed.data;
  return { projectId: p, userId: u, groupId: g, ...(m ? { messageId: m } : {}) };
}

export function preferencesToken(c: { projectId: string; userId: string }): string {
  return signToken("preferences", { p: c.projectId, u: c.userId });
}

export function readPreferencesToken(token: string): { projectId: string; userId: string } | null {
  const parsed = preferencesPayload.safeParse(verifyToken("preferences", token));
  return parsed.success ? { projectId: parsed.data.p, userId: parsed.data.u } : null;
}

export const unsubscribePath = (token: string) => `/u/${token}`;
// Encoded: the token arrives from the URL as-is and goes back into a Location header, where a raw
// control character made the response a 500 (issue 9.14). Real tokens are base64url and pass unchanged.
export const unsubscribePagePath = (token: string) => `/unsubscribe/${encodeURIComponent(token)}`;
export const preferencesPath = (token: string) => `/preferences/${encodeURIComponent(token)}`;
