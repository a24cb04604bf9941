import NextAuth, { type NextAuthConfig } from "next-auth";
import { normalizeSignInIdentifier } from "./sign-in-address";
import Nodemailer from "next-auth/providers/nodemailer";
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { adminAccounts, admins, adminSessions, adminVerificationTokens } from "@/db/schema";
import { configuredOrigin } from "@/lib/http/public-origin";
import { safePath } from "@/lib/http/safe-path";
import { buttonMail, sendMail } from "@/lib/mail/send-mail";
import { oauthProviders } from "./oauth-providers";
import { signInGate } from "./sign-in-gate";
import { assertSignInMailToAllowed } from "./signin-limits";

// Read once at load: an alias (APP_URL, RELAY_PUBLIC_URL) is copied into AUTH_URL, which next-auth reads itself.
configuredOrigin();

/**
 * Where the e-mailed link points: our confirmation page on the configured origin, carrying the callback's
 * parameters (development without AUTH_URL: the origin the request came to).
 */
export function confirmationUrl(callbackUrl: string): string {
  const url = new URL(callbackUrl);
  return `${configuredOrigin() ?? url.origin}/auth/confirm?${url.searchParams}`;
}

function adapter() {
  const db = getDb();
  const base = DrizzleAdapter(db, {
    usersTable: admins,
    accountsTable: adminAccounts,
    sessionsTable: adminSessions,
    verificationTokensTable: adminVerificationTokens,
  } as never);
  return {
    ...base,
    // Admins created by the CLI or an invitation may differ in case from the normalized sign-in address.
    async getUserByEmail(email: string) {
      const [row] = await db.select().from(admins).where(sql`lower(${admins.email}) = lower(${email})`).limit(1);
      return row ?? null;
    },
  };
}

/*
 * Magic links open /auth/confirm, which only shows a button; the token is consumed by that page's POST
 * (a server action redirecting to the callback). Mail scanners that pre-open links neither sign anyone in
 * nor burn the token. The HTTP doors under /api/auth go through lib/access/auth-handler.ts (configured
 * origin, bounded body), not next-auth's `handlers`.
 */
export const authConfig = (): NextAuthConfig => ({
  adapter: adapter(),
  session: { strategy: "database", maxAge: 30 * 24 * 3600 },
  trustHost: true,
  pages: { signIn: "/signin", verifyRequest: "/signin/check", error: "/signin" },
  providers: [
    Nodemailer({
      // Sending goes through lib/mail (SMTP_URL, or the development outbox); this is only required by the provider.
      server: process.env.SMTP_URL || "smtp://localhost:25",
      maxAge: 24 * 3600,
      // Ours, the same function the sign-in limits count with (lib/access/sign-in-address.ts).
      normalizeIdentifier: normalizeSignInIdentifier,
      async sendVerificationRequest({ identifier, url }) {
        await assertSignInMailToAllowed(identifier);
        const link = confirmationUrl(url);
        await sendMail({
          to: identifier,
          subject: "Sign in to Relay",
          text: `Sign in to Relay as ${identifier}:\n\n${link}\n\nThe link opens a page with a button; nothing happens until you press it. It works once, for 24 hours. If you did not ask for it, ignore this mail.`,
          html: buttonMail({
            heading: "Sign in to Relay",
            intro: `Use the button below to sign in as ${identifier}. You'll confirm on the next page.`,
            button: "Sign in",
            url: link,
            footer: "The link works once, for 24 hours. If you did not ask for it, ignore this mail.",
          }),
        });
      },
    }),
    ...oauthProviders(),
  ],
  callbacks: {
    signIn: ({ user, account, profile }) =>
      signInGate({ db: getDb }, { user, account, profile: profile as Record<string, unknown> | undefined }),
    // Every callbackUrl and redirectTo, whichever door it came through, lands on our origin (else /projects).
    redirect: ({ url, baseUrl }) => baseUrl + safePath(url, baseUrl),
    session({ session, user }) {
      session.user.id = user.id;
      return session;
    },
  },
});

export const { auth, signIn, signOut } = NextAuth(authConfig);
