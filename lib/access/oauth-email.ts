/** What next-auth hands the signIn callback for an OAuth sign-in (only the parts we read). */
export interface OAuthSignIn {
  provider: string;
  /** The address next-auth is about to sign in (or create an admin) with. */
  email: string | null | undefined;
  profile: Record<string, unknown> | undefined;
  accessToken: string | undefined;
}

type GitHubEmail = { email?: unknown; verified?: unknown };

const same = (a: unknown, b: string) => typeof a === "string" && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Did the provider verify the address we are about to trust? An admin is found (and invitations are
 * matched) by e-mail, so an unverified OAuth address would let anyone who types an admin's address into
 * their GitHub or Google account become that admin. Google says so in the ID token (`email_verified`).
 * GitHub's profile address may be unverified, and next-auth falls back to the first listed one, so we
 * ask GitHub's `/user/emails` for that exact address's `verified` flag. Unknown providers: never.
 */
export async function oauthEmailVerified(input: OAuthSignIn, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  const { email, profile } = input;
  if (!email) return false;
  if (input.provider === "google") return profile?.email_verified === true && same(profile.email, email);
  if (input.provider === "github") {
    if (!input.accessToken) return false;
    const res = await fetchImpl("https://api.github.com/user/emails", {
      headers: {
        authorization: `Bearer ${input.accessToken}`,
        accept: "application/vnd.github+json",
        "user-agent": "relay",
      },
    }).catch(() => null);
    if (!res?.ok) return false;
    const list = (await res.json().catch(() => null)) as GitHubEmail[] | null;
    return Array.isArray(list) && list.some((e) => same(e?.email, email) && e.verified === true);
  }
  return false;
}
