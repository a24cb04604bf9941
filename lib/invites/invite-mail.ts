import { buttonMail, type Mail } from "@/lib/mail/send-mail";

/**
 * The invitation mail. Its link carries no token: it opens "my invites", where the invitee must be signed
 * in with this very address to accept, so a forwarded mail grants nothing.
 */
export function inviteMail(input: {
  to: string;
  role: string;
  projectName: string;
  inviter: string | null;
  expiresAt: Date;
  origin: string;
}): Mail {
  const url = `${input.origin}/invites`;
  const who = input.inviter ?? "An administrator";
  const until = input.expiresAt.toUTCString();
  return {
    to: input.to,
    subject: `You're invited to ${input.projectName} on Relay`,
    text: `${who} invited you to the project "${input.projectName}" on Relay as ${input.role}.\n\nSign in with ${input.to} and accept it here:\n${url}\n\nThe invitation expires ${until}. Only a session signed in as ${input.to} can accept it.`,
    html: buttonMail({
      heading: `Join ${input.projectName}`,
      intro: `${who} invited you to the project "${input.projectName}" as ${input.role}. Sign in with ${input.to} to accept.`,
      button: "View invitation",
      url,
      footer: `The invitation expires ${until}. Only someone signed in as ${input.to} can accept it.`,
    }),
  };
}
