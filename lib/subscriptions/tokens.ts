import { z } from "zod";
import { signToken, verifyToken } from "@/lib/signing/tokens";

const unsubscribePayload = z.object({ p: z.uuid(), u: z.uuid(), g: z.uuid() });
const preferencesPayload = z.object({ p: z.uuid(), u: z.uuid() });

export interface UnsubscribeClaim {
  projectId: string;
  userId: string;
  groupId: string;
}

/** Signed (project, user, group): changing any of the three breaks the signature. */
export function unsubscribeToken(c: UnsubscribeClaim): string {
  return signToken("unsubscribe", { p: c.projectId, u: c.userId, g: c.groupId });
}

export function readUnsubscribeToken(token: string): UnsubscribeClaim | null {
  const parsed = unsubscribePayload.safeParse(verifyToken("unsubscribe", token));
  return parsed.success ? { projectId: parsed.data.p, userId: parsed.data.u, groupId: parsed.data.g } : null;
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
