import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { allowList, forbiddenAddress } from "@/lib/destinations/allowed-hosts";
import { composeMail, type OutgoingEmail } from "./compose-mail";
import type { DkimKey } from "./dkim";
import { smtpPool } from "./smtp-pool";
import type { SendResult } from "./send-result";

/** One e-mail for one SMTP pool: what a compose thread is handed (compose-threads.ts), or sent in line. */
export interface SmtpSend {
  pool: {
    /** The pool's owner (a provider's id, or `deployment`) and version: a new version replaces the pool. */
    owner: string;
    version: string;
    smtpUrl: string;
    /** The deployment's own SMTP_URL: resolved as the system resolves it, with no address check. */
    trusted: boolean;
    /** This pool's connections in this thread, when the process's are shared between threads. */
    connections?: number;
  };
  mail: OutgoingEmail;
  dkim: DkimKey | null;
}

/** An SMTP answer or connection error as a SendResult: 4xx, timeouts and dropped connections are transient. */
function smtpFailure(err: unknown): SendResult {
  const e = err as { responseCode?: number; response?: string; code?: string; message?: string };
  const reason = (e.response ?? e.message ?? String(err)).slice(0, 500);
  if (typeof e.responseCode === "number") return { ok: false, transient: e.responseCode < 500, reason };
  const permanent = e.code === "EAUTH" || e.code === "EENVELOPE" || e.code === "RELAY_FORBIDDEN_ADDRESS";
  return { ok: false, transient: !permanent, reason };
}

/**
 * Resolves an SMTP host the way destinations connect: every address it resolves to must be one Relay may
 * reach (DESTINATIONS_ALLOW_HOSTS lists private ones), and the connection goes to the checked address,
 * so DNS cannot rebind it between the check and the connect.
 */
async function checkedAddress(host: string): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, "");
  const addresses = isIP(bare) ? [{ address: bare }] : await dnsLookup(bare, { all: true });
  for (const a of addresses) {
    const why = forbiddenAddress(a.address, allowList());
    if (!why) return a.address;
  }
  const err = new Error(`refused to connect: ${host} resolves only to forbidden addresses`);
  (err as Error & { code: string }).code = "RELAY_FORBIDDEN_ADDRESS";
  throw err;
}

async function trustedAddress(host: string): Promise<string> {
  return isIP(host) ? host : (await dnsLookup(host)).address;
}

/** Composes, signs and sends one e-mail over this thread's pool for it; never throws. */
export async function sendSmtpHere({ pool, mail, dkim }: SmtpSend): Promise<SendResult> {
  try {
    const transport = await smtpPool({ ...pool, address: pool.trusted ? trustedAddress : checkedAddress });
    await transport.sendMail(await composeMail(mail, dkim));
    return { ok: true, providerMessageId: mail.messageId };
  } catch (err) {
    return smtpFailure(err);
  }
}
