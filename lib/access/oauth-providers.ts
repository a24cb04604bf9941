import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";

/**
 * Optional OAuth sign-in, enabled by env: AUTH_GITHUB_ID + AUTH_GITHUB_SECRET, AUTH_GOOGLE_ID +
 * AUTH_GOOGLE_SECRET. An OAuth sign-in never links to an existing admin by e-mail (next-auth's default),
 * and registration rules apply as for magic links.
 */
export function oauthProviders() {
  const providers = [];
  if (process.env.AUTH_GITHUB_ID && process.env.AUTH_GITHUB_SECRET) providers.push(GitHub);
  if (process.env.AUTH_GOOGLE_ID && process.env.AUTH_GOOGLE_SECRET) providers.push(Google);
  return providers;
}

/** For the sign-in page: which buttons to show. */
export function oauthProviderNames(): { id: string; name: string }[] {
  const out = [];
  if (process.env.AUTH_GITHUB_ID && process.env.AUTH_GITHUB_SECRET) out.push({ id: "github", name: "GitHub" });
  if (process.env.AUTH_GOOGLE_ID && process.env.AUTH_GOOGLE_SECRET) out.push({ id: "google", name: "Google" });
  return out;
}
