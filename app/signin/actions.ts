"use server";
import { AuthError } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { limitSignInMail } from "@/lib/access/signin-limits";
import { signIn, signOut } from "@/lib/access/auth";

/** Only same-site paths are allowed as the place to land after signing in. */
function safePath(value: FormDataEntryValue | null): string {
  const v = typeof value === "string" ? value : "";
  return v.startsWith("/") && !v.startsWith("//") ? v : "/projects";
}

export async function requestMagicLink(formData: FormData) {
  const email = String(formData.get("email") ?? "").trim();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) redirect(`/signin?error=BadEmail`);
  const limited = await limitSignInMail(await headers(), email);
  if (limited) redirect(`/signin?error=TooManyRequests&retry=${limited}`);
  try {
    await signIn("nodemailer", { email, redirectTo: safePath(formData.get("callbackUrl")) });
  } catch (err) {
    // signIn() ends by throwing Next's redirect; only next-auth's own errors are turned into a message.
    if (err instanceof AuthError) redirect(`/signin?error=${encodeURIComponent(err.type)}`);
    throw err;
  }
}

export async function signOutAction() {
  await signOut({ redirectTo: "/signin" });
}

export async function signInWithProvider(formData: FormData) {
  const provider = String(formData.get("provider") ?? "");
  try {
    await signIn(provider, { redirectTo: safePath(formData.get("callbackUrl")) });
  } catch (err) {
    if (err instanceof AuthError) redirect(`/signin?error=${encodeURIComponent(err.type)}`);
    throw err;
  }
}
