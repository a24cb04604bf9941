import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { Invalid } from "@/lib/http/errors";
import { seal } from "@/lib/signing/seal";

/** The headers every e-mail's DKIM signature covers (those present; relaxed/relaxed). */
export const DKIM_HEADER_FIELDS = [
  "From",
  "To",
  "Subject",
  "Date",
  "Message-ID",
  "List-Unsubscribe",
  "List-Unsubscribe-Post",
  "MIME-Version",
  "Content-Type",
].join(":");

export interface DkimKey {
  domain: string;
  selector: string;
  /** Parsed once: signing with a PEM string would parse it again for every message. */
  privateKey: KeyObject;
  headerFieldNames: string;
}

/** A signing key from its PEM text, or null when the text is not an RSA private key. */
export function dkimKey(domain: string, selector: string, pem: string): DkimKey | null {
  try {
    const privateKey = createPrivateKey(pem);
    if (privateKey.asymmetricKeyType !== "rsa") return null;
    return { domain, selector, privateKey, headerFieldNames: DKIM_HEADER_FIELDS };
  } catch {
    return null;
  }
}

let deployment: { env: string; key: DkimKey | null } | undefined;

/** The deployment's key (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY as PEM, `\n` allowed), or null. */
export function deploymentDkim(): DkimKey | null {
  const { DKIM_DOMAIN: domain, DKIM_SELECTOR: selector, DKIM_PRIVATE_KEY: pem } = process.env;
  const env = `${domain}\n${selector}\n${pem}`;
  if (deployment?.env !== env)
    deployment = {
      env,
      key: domain && selector && pem ? dkimKey(domain, selector, pem.replaceAll("\\n", "\n")) : null,
    };
  return deployment.key;
}

/** The TXT record that publishes a key's public half: its name and value. */
export function dkimRecord(domain: string, selector: string, privateKeyPem: string): { name: string; value: string } {
  const spki = createPublicKey(privateKeyPem).export({ type: "spki", format: "der" }).toString("base64");
  return { name: `${selector}._domainkey.${domain}`, value: `v=DKIM1; k=rsa; p=${spki}` };
}

/** A new 2048-bit RSA private key as PKCS#8 PEM. */
export function newDkimPrivateKey(): string {
  return generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
    type: "pkcs8",
    format: "pem",
  }) as string;
}

/**
 * A provider's config with its DKIM key set (`input`), removed (`null`) or kept (`undefined`): domain and
 * selector in the clear, the private key sealed. A key that is not an RSA private key is a 400.
 */
export function withDkim(
  config: Record<string, string>,
  input: { domain: string; selector: string; private_key: string } | null | undefined,
): Record<string, string> {
  if (input === undefined) return config;
  const { dkim_domain: _d, dkim_selector: _s, dkim_key: _k, ...rest } = config;
  if (input === null) return rest;
  if (!dkimKey(input.domain, input.selector, input.private_key))
    throw new Invalid("The DKIM key is refused: not an RSA private key in PEM.", {
      errors: [{ path: "dkim.private_key", message: "not an RSA private key in PEM" }],
    });
  return { ...rest, dkim_domain: input.domain, dkim_selector: input.selector, dkim_key: seal(input.private_key) };
}
