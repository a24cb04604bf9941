/** Enough of the address for the person to recognise it, not enough to harvest it from a forwarded link. */
export function maskEmail(email: string | null): string | null {
  if (!email) return null;
  const at = email.lastIndexOf("@");
  if (at < 1) return "***";
  const local = email.slice(0, at);
  return `${local[0]}${"•".repeat(Math.min(6, Math.max(2, local.length - 1)))}${email.slice(at)}`;
}

export function maskPhone(phone: string | null): string | null {
  if (!phone) return null;
  return `${"•".repeat(Math.max(0, phone.length - 4))}${phone.slice(-4)}`;
}
