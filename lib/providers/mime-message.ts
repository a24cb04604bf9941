import addressparser from "nodemailer/lib/addressparser";
import base64 from "nodemailer/lib/base64";
import mimeFuncs from "nodemailer/lib/mime-funcs";
import qp from "nodemailer/lib/qp";
import type { OutgoingEmail } from "./outgoing-email";

/*
 * A broadcast's e-mail as MIME bytes, assembled from nodemailer's own encoders (RFC 2047 words, header
 * folding, quoted-printable and base64 with their line wrapping) without its MimeNode tree. MimeNode
 * builds each message through a chain of streams, normalises every header name and scans the whole html
 * with several regular expressions to pick encodings: it cost more CPU per message than rendering,
 * claiming, reading facts and recording together (docs/decisions/0031). Messages here are always of one
 * shape (a subject, a text part, an html part, a few headers), so the tree is not needed; any message
 * outside that shape (an address this does not write as nodemailer would, an odd header) answers null and
 * goes through nodemailer's composer instead.
 */

/** Printable ASCII without spaces or angle brackets: an address written as is. */
const PLAIN_ADDRESS = /^[\x21-\x3b\x3d\x3f-\x7e]+@[\x21-\x3b\x3d\x3f-\x7e]+$/;
/** A header field name (RFC 5322: printable ASCII but the colon). */
const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+$/;
const NON_ASCII = /[^\x20-\x7e]/;

/** `From` header values by the provider's configured text (a handful per process), null when not plain. */
const fromHeaders = new Map<string, { header: string; address: string } | null>();

function fromHeader(from: string): { header: string; address: string } | null {
  let known = fromHeaders.get(from);
  if (known !== undefined) return known;
  const parsed = addressparser(from);
  const first = parsed.length === 1 ? parsed[0]! : null;
  const one = first && "address" in first ? first : null;
  known =
    one && PLAIN_ADDRESS.test(one.address)
      ? { header: one.name ? `${addressName(one.name)} <${one.address}>` : one.address, address: one.address }
      : null;
  if (fromHeaders.size > 1000) fromHeaders.clear();
  fromHeaders.set(from, known);
  return known;
}

/** A display name as nodemailer writes it: bare when word characters only, quoted when ASCII, else encoded. */
function addressName(name: string): string {
  if (/^[\w ]*$/.test(name)) return name;
  if (/^[\x20-\x7e]*$/.test(name)) return `"${name.replace(/([\\"])/g, "\\$1")}"`;
  return mimeFuncs.encodeWord(name, wordEncoding(name), 52);
}

/** Q for mostly Latin text, B otherwise (nodemailer's rule). */
function wordEncoding(value: string): "Q" | "B" {
  const nonLatin = value.match(/[\x00-\x08\x0b\x0c\x0e-\x1f\u0080-\uffff]/g)?.length ?? 0;
  const latin = value.match(/[a-z]/gi)?.length ?? 0;
  return nonLatin < latin ? "Q" : "B";
}

/** nodemailer's encodeWords with its fourth argument (encode the whole value), which its types leave out. */
const encodeWords = mimeFuncs.encodeWords.bind(mimeFuncs) as (
  value: string,
  encoding: "Q" | "B",
  maxLength: number,
  all: boolean,
) => string;

/** One header line, folded at 76; a value with non-ASCII text becomes encoded words. */
function header(name: string, value: string): string {
  const flat = value.replace(/\r?\n|\r/g, " ");
  const encoded = NON_ASCII.test(flat) ? encodeWords(flat, wordEncoding(flat), 52, true) : flat;
  return mimeFuncs.foldLines(`${name}: ${encoded}`, 76);
}

/**
 * A text part's body: quoted-printable, or base64 when most of it is multi-byte (QP would triple it),
 * with CRLF line ends. Either way the part can never contain the boundary, which holds `=_`: QP writes
 * every `=` as `=3D` and base64 has no `_`.
 */
function part(type: "plain" | "html", content: string): string {
  const crlf = content.replace(/\r?\n|\r/g, "\r\n");
  const bytes = Buffer.from(crlf, "utf8");
  const b64 = bytes.length - crlf.length > crlf.length / 3;
  const body = b64 ? base64.wrap(base64.encode(bytes), 76) : qp.wrap(qp.encode(bytes), 76);
  return (
    `Content-Type: text/${type}; charset=utf-8\r\n` +
    `Content-Transfer-Encoding: ${b64 ? "base64" : "quoted-printable"}\r\n\r\n${body}`
  );
}

/**
 * The message's bytes and its envelope sender, or null when it is not of the shape written here (then
 * nodemailer's composer makes it). `date` is the Date header's.
 */
export function mimeMessage(mail: OutgoingEmail, date = new Date()): { raw: Buffer; envelopeFrom: string } | null {
  const from = fromHeader(mail.from);
  if (!from || !PLAIN_ADDRESS.test(mail.to) || !/^<[\x21-\x3b\x3d\x3f-\x7e]+>$/.test(mail.messageId)) return null;
  const extra = Object.entries(mail.headers);
  if (extra.some(([name]) => !FIELD_NAME.test(name))) return null;
  const lines = [
    ...extra.map(([name, value]) => header(name, value)),
    `From: ${from.header}`,
    `To: ${mail.to}`,
    header("Subject", mail.subject),
    `Message-ID: ${mail.messageId}`,
    `Date: ${date.toUTCString().replace("GMT", "+0000")}`,
    "MIME-Version: 1.0",
  ];
  const parts = [...(mail.text ? [part("plain", mail.text)] : []), ...(mail.html ? [part("html", mail.html)] : [])];
  let body: string;
  if (parts.length === 2) {
    // Unique per message and at most 70 characters (RFC 2046): from the Message-ID's left part.
    const id = mail.messageId.slice(1, mail.messageId.indexOf("@") > 0 ? mail.messageId.indexOf("@") : -1);
    const boundary = `=_relay_${id.replace(/[^0-9A-Za-z.-]/g, "_").slice(0, 60)}`;
    lines.push(`Content-Type: multipart/alternative;\r\n boundary="${boundary}"`);
    body = `\r\n--${boundary}\r\n${parts[0]}\r\n--${boundary}\r\n${parts[1]}\r\n--${boundary}--\r\n`;
  } else {
    // One part (or none: an empty text part): its headers are the message's last ones.
    const only = parts[0] ?? part("plain", "");
    const split = only.indexOf("\r\n\r\n");
    lines.push(only.slice(0, split));
    const content = only.slice(split + 4);
    // Ending on a line end, as SMTP's DATA does (nodemailer adds one the same way).
    body = `\r\n${content}${content.endsWith("\r\n") ? "" : "\r\n"}`;
  }
  return {
    raw: Buffer.from(`${lines.join("\r\n")}\r\n${body}`, "utf8"),
    envelopeFrom: mail.envelopeFrom || from.address,
  };
}
