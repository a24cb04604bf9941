/**
 * The address a sign-in mail goes to, normalised exactly as Auth.js's default does (NFKC, lower case,
 * trimmed, the domain cut at its first comma; quotes and anything but one `@` refused). It is the
 * Nodemailer provider's `normalizeIdentifier` (lib/access/auth.ts), so the sign-in limits, which count this
 * same string, count the inbox the mail really reaches: `Victim@Example.com ` and `victim@example.com,2`
 * are one address. Null when Auth.js would refuse the address.
 */
export function signInAddress(raw: string): string | null {
  const email = raw.normalize("NFKC").toLowerCase().trim();
  if (email.includes('"')) return null;
  const parts = email.split("@");
  if (parts.length !== 2 || !parts[0] || !parts[1]) return null;
  const domain = parts[1].split(",")[0];
  if (!domain) return null;
  return `${parts[0]}@${domain}`;
}

/** For the provider: Auth.js expects a throw for an address it must refuse. */
export function normalizeSignInIdentifier(raw: string): string {
  const address = signInAddress(raw);
  if (!address) throw new Error("Invalid email address format.");
  return address;
}
