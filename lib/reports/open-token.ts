import { z } from "zod";
import { signToken, verifyToken } from "@/lib/signing/tokens";

const payload = z.object({ p: z.uuid(), m: z.uuid() });

export interface OpenClaim {
  projectId: string;
  messageId: string;
}

/** The open pixel's path for one message: `/o/<signed project and message>.gif`. */
export function openPixelPath(c: OpenClaim): string {
  return `/o/${signToken("open", { p: c.projectId, m: c.messageId })}`;
}

/** The claim when the token is intact and for the open pixel, else null. */
export function readOpenToken(token: string): OpenClaim | null {
  const parsed = payload.safeParse(verifyToken("open", token));
  return parsed.success ? { projectId: parsed.data.p, messageId: parsed.data.m } : null;
}
