import { sign } from "node:crypto";
import { domainToASCII } from "node:url";
import { promisify } from "node:util";
import dkimSignModule from "nodemailer/lib/dkim/sign";
import RelaxedBody from "nodemailer/lib/dkim/relaxed-body";
import mimeFuncs from "nodemailer/lib/mime-funcs";
import type { DkimKey } from "./dkim";

/*
 * A DKIM signature (relaxed/relaxed, rsa-sha256) with the RSA operation off the event loop. nodemailer's
 * own signer signs with crypto's synchronous Signer: an RSA-2048 signature holds the calling thread for a
 * quarter of a millisecond or more, and on a compose thread that also speaks SMTP (compose-threads.ts)
 * every reply that arrives meanwhile waits for it, so each exchange took longer and a broadcast sent
 * slower (docs/decisions/0031). Here crypto.sign runs with a callback, on libuv's pool. Canonicalization
 * is nodemailer's: its relaxed body hash (RelaxedBody) and header canonicalization (relaxedHeaders); the
 * field it writes is the one nodemailer writes, byte for byte (dkim-sign.test.ts).
 */

interface Header {
  key: string;
  line: string;
}
const { relaxedHeaders } = dkimSignModule as unknown as {
  relaxedHeaders: (
    headers: Header[],
    fieldNames: string,
    skipFields?: string,
  ) => { headers: string; fieldNames: string };
};
const signAsync = promisify(sign);

/** The header block's fields as nodemailer's MessageParser lists them: unfolded names, whole lines. */
function headerFields(block: string): Header[] {
  const lines = block.split(/\r?\n/);
  for (let i = lines.length - 1; i > 0; i--)
    if (/^\s/.test(lines[i]!)) {
      lines[i - 1] += `\n${lines[i]}`;
      lines.splice(i, 1);
    }
  return lines
    .filter((line) => line.trim())
    .map((line) => ({ key: line.slice(0, line.indexOf(":")).trim().toLowerCase(), line }));
}

/** The body's relaxed hash (base64), by nodemailer's RelaxedBody. */
function bodyHash(body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const relaxed = new RelaxedBody({ hashAlgo: "sha256" });
    relaxed.once("hash", (digest) => resolve(String(digest)));
    relaxed.once("error", reject);
    relaxed.resume();
    relaxed.end(body);
  });
}

/** The message with its DKIM-Signature field first. */
export async function dkimSigned(raw: Buffer, key: DkimKey): Promise<Buffer> {
  let end = raw.indexOf("\r\n\r\n");
  let gap = 4;
  if (end < 0) {
    end = raw.indexOf("\n\n");
    gap = end < 0 ? 0 : 2;
  }
  const block = (end < 0 ? raw : raw.subarray(0, end)).toString();
  const body = end < 0 ? Buffer.alloc(0) : raw.subarray(end + gap);
  const canonical = relaxedHeaders(headerFields(block), key.headerFieldNames);
  const tags = [
    "v=1",
    "a=rsa-sha256",
    "c=relaxed/relaxed",
    `d=${domainToASCII(key.domain) || key.domain}`,
    "q=dns/txt",
    `s=${key.selector}`,
    `bh=${await bodyHash(body)}`,
    `h=${canonical.fieldNames}`,
  ].join("; ");
  const field = `${mimeFuncs.foldLines(`DKIM-Signature: ${tags}`, 76)};\r\n b=`;
  const signed = relaxedHeaders([{ key: "dkim-signature", line: field }], "dkim-signature").headers.slice(0, -2);
  const signature = (await signAsync("sha256", Buffer.from(canonical.headers + signed), key.privateKey)).toString(
    "base64",
  );
  const folded = signature.replace(/(^.{73}|.{75}(?!\r?\n|\r))/g, "$&\r\n ").trim();
  return Buffer.concat([Buffer.from(`${field}${folded}\r\n`), raw]);
}
