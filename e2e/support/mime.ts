/** Just enough MIME to read what nodemailer sends: headers, multipart bodies, quoted-printable and base64. */
export interface ParsedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

function splitHeaders(raw: string): [Map<string, string>, string] {
  const i = raw.search(/\r?\n\r?\n/);
  const head = i < 0 ? raw : raw.slice(0, i);
  const body = i < 0 ? "" : raw.slice(i).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const c = line.indexOf(":");
    if (c > 0) headers.set(line.slice(0, c).trim().toLowerCase(), line.slice(c + 1).trim());
  }
  return [headers, body];
}

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const src = s.replace(/=\r?\n/g, "");
  for (let i = 0; i < src.length; i++) {
    if (src[i] === "=" && /^[0-9A-F]{2}$/i.test(src.slice(i + 1, i + 3))) {
      bytes.push(parseInt(src.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(src[i]!, "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const enc = (headers.get("content-transfer-encoding") ?? "").toLowerCase();
  if (enc === "quoted-printable") return decodeQuotedPrintable(body);
  if (enc === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

/** RFC 2047 encoded words in headers (`=?UTF-8?Q?...?=`). */
function decodeWords(s: string): string {
  return s.replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_m, _cs, kind: string, text: string) =>
    kind.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : decodeQuotedPrintable(text.replace(/_/g, " ")),
  );
}

export function parseMail(raw: string): ParsedMail {
  const [headers, body] = splitHeaders(raw);
  const out: ParsedMail = { to: headers.get("to") ?? "", subject: decodeWords(headers.get("subject") ?? ""), text: "", html: "" };
  const walk = (h: Map<string, string>, b: string) => {
    const type = h.get("content-type") ?? "text/plain";
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (type.toLowerCase().startsWith("multipart/") && boundary) {
      for (const part of b.split(`--${boundary}`).slice(1)) {
        if (part.startsWith("--")) break;
        const [ph, pb] = splitHeaders(part.replace(/^\r?\n/, ""));
        walk(ph, pb);
      }
    } else if (type.toLowerCase().startsWith("text/html")) out.html ||= decodeBody(h, b);
    else if (type.toLowerCase().startsWith("text/plain")) out.text ||= decodeBody(h, b);
  };
  walk(headers, body);
  return out;
}
