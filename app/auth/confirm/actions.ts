"use server";
import { redirect } from "next/navigation";

/**
 * The POST that consumes a magic link: only now is the browser sent to next-auth's callback with the
 * token. A GET of the e-mailed /auth/confirm link (a mail scanner, a preview) never gets here.
 */
export async function confirmSignIn(formData: FormData) {
  const params = new URLSearchParams();
  for (const name of ["callbackUrl", "token", "email"]) {
    const v = formData.get(name);
    if (typeof v === "string" && v) params.set(name, v);
  }
  redirect(`/api/auth/callback/nodemailer?${params}`);
}
