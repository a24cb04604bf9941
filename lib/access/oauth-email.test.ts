import { describe, expect, it, vi } from "vitest";
import { oauthEmailVerified } from "./oauth-email";
import { signInGate } from "./sign-in-gate";

const githubAnswers = (body: unknown, status = 200) =>
  vi.fn(
    async (_url: string | URL | Request, _init?: RequestInit) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }),
  );

describe("oauthEmailVerified", () => {
  it("accepts a Google profile whose address Google verified", async () => {
    expect(
      await oauthEmailVerified({
        provider: "google",
        email: "Ada@Example.com",
        profile: { email: "ada@example.com", email_verified: true },
        accessToken: "t",
      }),
    ).toBe(true);
  });

  it("refuses a Google profile with an unverified or missing flag, or another address", async () => {
    for (const profile of [
      { email: "ada@example.com", email_verified: false },
      { email: "ada@example.com" },
      { email: "ada@example.com", email_verified: "true" },
      { email: "eve@example.com", email_verified: true },
    ]) {
      expect(
        await oauthEmailVerified({ provider: "google", email: "ada@example.com", profile, accessToken: "t" }),
      ).toBe(false);
    }
  });

  it("accepts a GitHub address listed as verified by /user/emails, asked with the account's token", async () => {
    const fetchImpl = githubAnswers([
      { email: "other@example.com", verified: false },
      { email: "ada@example.com", verified: true, primary: true },
    ]);
    expect(
      await oauthEmailVerified(
        { provider: "github", email: "ada@example.com", profile: { email: "ada@example.com" }, accessToken: "gho_1" },
        fetchImpl as typeof fetch,
      ),
    ).toBe(true);
    expect(fetchImpl.mock.calls[0]![0]).toBe("https://api.github.com/user/emails");
    expect(new Headers(fetchImpl.mock.calls[0]![1]!.headers).get("authorization")).toBe("Bearer gho_1");
  });

  it("refuses a GitHub address that is unverified, unlisted, or when GitHub cannot be asked", async () => {
    const unverified = githubAnswers([{ email: "admin@example.com", verified: false, primary: true }]);
    expect(
      await oauthEmailVerified(
        { provider: "github", email: "admin@example.com", profile: {}, accessToken: "t" },
        unverified as typeof fetch,
      ),
    ).toBe(false);
    const unlisted = githubAnswers([{ email: "me@example.com", verified: true }]);
    expect(
      await oauthEmailVerified(
        { provider: "github", email: "admin@example.com", profile: {}, accessToken: "t" },
        unlisted as typeof fetch,
      ),
    ).toBe(false);
    const failing = githubAnswers({ message: "Bad credentials" }, 401);
    expect(
      await oauthEmailVerified(
        { provider: "github", email: "admin@example.com", profile: {}, accessToken: "t" },
        failing as typeof fetch,
      ),
    ).toBe(false);
    const down = vi.fn(async () => Promise.reject(new Error("offline")));
    expect(
      await oauthEmailVerified(
        { provider: "github", email: "admin@example.com", profile: {}, accessToken: "t" },
        down as typeof fetch,
      ),
    ).toBe(false);
    expect(
      await oauthEmailVerified(
        { provider: "github", email: "admin@example.com", profile: {}, accessToken: undefined },
        unlisted as typeof fetch,
      ),
    ).toBe(false);
  });

  it("refuses providers it does not know and profiles without an address", async () => {
    expect(
      await oauthEmailVerified({
        provider: "gitlab",
        email: "ada@example.com",
        profile: { email_verified: true },
        accessToken: "t",
      }),
    ).toBe(false);
    expect(
      await oauthEmailVerified({
        provider: "google",
        email: null,
        profile: { email_verified: true },
        accessToken: "t",
      }),
    ).toBe(false);
  });
});

describe("signInGate (next-auth's signIn callback)", () => {
  const noDb = () => {
    throw new Error("an unverified address must be refused before any lookup");
  };
  it("refuses an OAuth sign-in with an unverified address before looking up any admin or invitation", async () => {
    const answer = await signInGate(
      { db: noDb },
      {
        user: { email: "owner@example.com" },
        account: { provider: "google", type: "oidc", access_token: "t" },
        profile: { email: "owner@example.com", email_verified: false },
      },
    );
    expect(answer).toBe("/signin?error=UnverifiedEmail");
    const gh = await signInGate(
      { db: noDb, fetch: githubAnswers([{ email: "owner@example.com", verified: false }]) as typeof fetch },
      {
        user: { email: "owner@example.com" },
        account: { provider: "github", type: "oauth", access_token: "t" },
        profile: {},
      },
    );
    expect(gh).toBe("/signin?error=UnverifiedEmail");
  });

  it("goes on to the registration rules for a verified address and for magic links", async () => {
    const looked: string[] = [];
    const db = () =>
      ({
        select: () => ({
          from: () => ({ where: () => ({ limit: async () => (looked.push("admin"), [{ id: "a1" }]) }) }),
        }),
      }) as never;
    expect(
      await signInGate(
        { db },
        {
          user: { email: "owner@example.com" },
          account: { provider: "google", type: "oidc" },
          profile: { email: "owner@example.com", email_verified: true },
        },
      ),
    ).toBe(true);
    expect(
      await signInGate(
        { db },
        {
          user: { email: "owner@example.com" },
          account: { provider: "nodemailer", type: "email" },
        },
      ),
    ).toBe(true);
    expect(looked).toEqual(["admin", "admin"]);
  });
});
