import type { DbOrTx } from "@/db/client";
import { oauthEmailVerified } from "./oauth-email";
import { maySignIn } from "./registration";

/**
 * `db` is asked for only once the address may be looked up, so a refused OAuth sign-in opens no
 * connection; `fetch` reaches the provider (GitHub's e-mail list), a stand-in in tests.
 */
export interface SignInGateContext {
  db: () => DbOrTx;
  fetch?: typeof fetch;
}

type Account = { provider: string; type: string; access_token?: string } | null | undefined;

/**
 * next-auth's signIn callback: true, or where to send the person instead. An OAuth address counts only
 * when the provider verified it (checked before anything is looked up, so an unverified address is never
 * matched to an admin or an invitation); then the registration rules apply as for magic links.
 */
export async function signInGate(
  ctx: SignInGateContext,
  input: { user: { email?: string | null }; account?: Account; profile?: Record<string, unknown> },
): Promise<true | string | false> {
  const email = input.user.email;
  if (!email) return false;
  const account = input.account;
  if (account && (account.type === "oauth" || account.type === "oidc")) {
    const verified = await oauthEmailVerified(
      { provider: account.provider, email, profile: input.profile, accessToken: account.access_token },
      ctx.fetch,
    );
    if (!verified) return "/signin?error=UnverifiedEmail";
  }
  return (await maySignIn({ db: ctx.db() }, email)) ? true : "/signin?error=InviteOnly";
}
