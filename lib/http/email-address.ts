import { z } from "zod";

/** RFC 5321's longest path; nothing longer is a deliverable address. */
export const EMAIL_MAX_LENGTH = 320;

// Dot-separated atoms (local part) and LDH labels (domain): every repetition starts with a mandatory
// separator, so the pattern cannot backtrack ambiguously; the length bound above caps the rest.
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const ADDRESS = new RegExp(`^${ATOM}(?:\\.${ATOM})*@(?:${LABEL}\\.)+[A-Za-z]{2,63}$`);

/**
 * The one e-mail check (sign-in, invitations, end-user e-mail). The length is bounded before any pattern
 * runs: a crafted address of a megabyte once kept a regex busy for minutes on the public sign-in form.
 */
export function isEmailAddress(value: string): boolean {
  if (value.length > EMAIL_MAX_LENGTH) return false;
  const at = value.indexOf("@");
  if (at < 1 || at > 64) return false;
  return ADDRESS.test(value);
}

/** The zod form of the same check, for request bodies, forms and the OpenAPI document. */
export const emailAddress = z
  .string()
  .max(EMAIL_MAX_LENGTH)
  .refine(isEmailAddress, { message: "must be an e-mail address (at most 320 characters)" })
  .meta({ format: "email" });
