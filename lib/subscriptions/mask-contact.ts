/** Enough of the address for the person to recognise it, not enough to harvest it from a forwarded link. */
export function maskEmail(email: string | null): string | null {
  if (!email) return null;
  const at = email.lastIndexOf("@");
  if (at < 1) return "***";
  const local = email.slice(0, at);
  return `${local[0]}${"•".repeat(Math.min(6, Math.max(2, local.length - 1)))}${email.slice(at)}`;
}

/** The last four digits only; pages say "the number ending in 0123". */
export function maskPhone(phone: string | null): string | null {
  return phone ? phone.slice(-4) : null;
}
