import type { z } from "zod";
import { type AppError, Invalid, PayloadTooLarge, UnsupportedMediaType } from "./errors";
import { MAX_BODY_DEPTH, nestingDepth } from "./json-shape";
import { zodIssuesToFieldErrors } from "./zod-errors";

export const MAX_BODY_BYTES = 1024 * 1024;

/** The bytes each request's JSON body was read as, so the request log can keep a failed request's body without reading it twice. */
const bodies = new WeakMap<Request, Uint8Array>();
export function bodyRead(req: Request): Uint8Array | undefined {
  return bodies.get(req);
}

function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const type = value.split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/**
 * How much of an oversized body is still read, and thrown away, before the 413 is answered. A server
 * that closes a connection with unread data in its receive buffer makes the kernel reset it, and a
 * client still sending its body then gets EPIPE or ECONNRESET instead of the 413 already on its way (an
 * SDK would report a network error, not "too large"). Past these bounds the connection is dropped anyway:
 * a gigabyte, or a client trickling bytes, is not worth reading.
 */
export const DRAIN_BYTES = 8 * 1024 * 1024;
const DRAIN_MS = 2_000;

const COMPRESSED: Record<string, CompressionFormat> = { gzip: "gzip", "x-gzip": "gzip", deflate: "deflate" };

/**
 * The body's `Content-Encoding` as a decompression format, null for none or `identity`. Anything else is a
 * 415 before a byte is read.
 */
export function bodyEncoding(req: Request): CompressionFormat | null {
  const encoding = (req.headers.get("content-encoding") ?? "").trim().toLowerCase();
  if (encoding === "" || encoding === "identity") return null;
  const format = COMPRESSED[encoding];
  if (!format)
    throw new UnsupportedMediaType(
      `\`Content-Encoding: ${encoding.slice(0, 40)}\` is not supported; send the body uncompressed, gzip or deflate.`,
    );
  return format;
}

/**
 * The request body decoded per `Content-Encoding` (gzip, deflate), as a stream that decompresses only as
 * it is read, so memory never holds more than the reader asked for. The compressed side is bounded by
 * `rawLimit` too (a stream of empty deflate blocks yields nothing, forever). `raw` is the reader of the
 * bytes as sent: cancelling `stream` leaves it alone, so the caller can drain it before answering.
 */
export function decodedBody(
  req: Request,
  rawLimit: number,
): { stream: ReadableStream<Uint8Array>; raw: ReadableStreamDefaultReader<Uint8Array> } | null {
  const format = bodyEncoding(req);
  if (!req.body) return null;
  const raw = req.body.getReader();
  let seen = 0;
  const counted = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await raw.read();
      if (next.done) return controller.close();
      seen += next.value.byteLength;
      if (seen > rawLimit) controller.error(tooLarge(rawLimit));
      else controller.enqueue(next.value);
    },
    cancel() {}, // the raw body is the caller's to drain or cancel
  });
  if (!format) return { stream: counted, raw };
  const inflated = counted.pipeThrough(new DecompressionStream(format) as TransformStream<Uint8Array, Uint8Array>);
  const reader = inflated.getReader();
  // Corrupt or truncated compressed data is the client's error (400), whoever reads the stream.
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (err) {
        controller.error(
          err instanceof PayloadTooLarge
            ? err
            : new Invalid(`The body is not valid ${format} data.`, {
                errors: [{ path: "", message: "malformed compressed body" }],
              }),
        );
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { stream, raw };
}

/**
 * Hands the decoded body (see decodedBody) to `consume` as a stream, for bodies too large to hold (import
 * files). When `consume` refuses the body part-way (a limit, a bad file), the rest of what the client is
 * still sending is read and thrown away within the drain bounds before the error is answered, as for an
 * oversized JSON body: the client then gets the answer, not a reset connection.
 */
export async function withBodyStream<T>(
  req: Request,
  rawLimit: number,
  consume: (body: ReadableStream<Uint8Array> | null) => Promise<T>,
): Promise<T> {
  const body = decodedBody(req, rawLimit);
  try {
    return await consume(body?.stream ?? null);
  } catch (err) {
    if (body) await drain(body.raw, DRAIN_BYTES);
    throw err;
  }
}

/**
 * Reads at most `limit` decoded bytes: a lying or absent Content-Length, or a compressed body that inflates
 * past the limit (a "zip bomb"), cannot make us buffer more; the 413 comes as soon as the limit is passed,
 * having decompressed no more than the limit.
 */
export async function readLimited(req: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  bodyEncoding(req); // an unsupported encoding is a 415 whatever the size
  if (Number.isFinite(declared) && declared > limit) {
    if (declared <= limit + DRAIN_BYTES && req.body) await drain(req.body.getReader(), declared);
    throw tooLarge(limit);
  }
  const body = decodedBody(req, limit);
  if (!body) return new Uint8Array();
  const reader = body.stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const refuse = async (err: AppError) => {
    await reader.cancel().catch(() => {});
    await drain(body.raw, DRAIN_BYTES);
    return err;
  };
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (err) {
      // Too large, or corrupt compressed data (decodedBody): answered after draining. Anything else (the
      // client went away) goes on as it is.
      if (err instanceof PayloadTooLarge || err instanceof Invalid) throw await refuse(err);
      throw err;
    }
    if (next.done) break;
    size += next.value.byteLength;
    if (size > limit) throw await refuse(tooLarge(limit));
    chunks.push(next.value);
  }
  return Buffer.concat(chunks);
}

/** A body this small arrives with its headers and is read with them, so answering without it resets nothing. */
const SMALL_BODY = 64 * 1024;

/**
 * Before an error is answered (lib/http/budgets.ts `answerError`): a large body the handler never read,
 * as when a 401 or a 429 comes before the body, is read and thrown away within the drain bounds, for the
 * same reason as an oversized one's. A body already being read, or declared past the bounds, is left.
 */
export async function drainUnread(req: Request): Promise<void> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && (declared <= SMALL_BODY || declared > MAX_BODY_BYTES + DRAIN_BYTES)) return;
  if (!req.body || req.bodyUsed || req.body.locked) return;
  await drain(req.body.getReader(), Number.isFinite(declared) ? declared : MAX_BODY_BYTES + DRAIN_BYTES);
}

/** Reads and discards up to `bytes` more within DRAIN_MS, then cancels whatever is left. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, bytes: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), DRAIN_MS)));
  try {
    for (let read = 0; read <= bytes; ) {
      const next = await Promise.race([reader.read(), late]);
      if (next === "late" || next.done) return;
      read += next.value.byteLength;
    }
  } catch {
    // The client went away: nothing left to drain.
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
}

function tooLarge(limit: number) {
  const size = limit >= 1024 * 1024 ? `${limit / 1024 / 1024} MiB` : `${limit / 1024} KiB`;
  return new PayloadTooLarge(`The request body is over the ${size} limit.`);
}

/**
 * Content type, size, JSON syntax, then the zod schema: every failure is a typed 4xx. `anyContentType`
 * reads the body as JSON whatever its `Content-Type` says: Segment's tracking API does (RudderStack's Node
 * SDK posts its gzipped JSON as `application/x-www-form-urlencoded`, axios's default).
 */
export async function readJson<S extends z.ZodType>(
  req: Request,
  schema: S,
  opts: { anyContentType?: boolean; maxBytes?: number } = {},
): Promise<z.output<S>> {
  if (!opts.anyContentType && !isJsonContentType(req.headers.get("content-type"))) {
    throw new UnsupportedMediaType("Send the body as JSON with `Content-Type: application/json`.");
  }
  const bytes = await readLimited(req, opts.maxBytes ?? MAX_BODY_BYTES);
  bodies.set(req, bytes);
  // Bounded before parsing: half a million nested brackets cost JSON.parse seconds, and recursive
  // schemas must never see thousands of levels.
  if (nestingDepth(bytes) > MAX_BODY_DEPTH) {
    throw new Invalid(`The body nests deeper than ${MAX_BODY_DEPTH} levels.`, {
      errors: [{ path: "", message: `nested deeper than ${MAX_BODY_DEPTH} levels` }],
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new Invalid("The body is not valid JSON.", { errors: [{ path: "", message: "malformed JSON" }] });
  }
  return parseWith(schema, value);
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what = "The body"): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const errors = zodIssuesToFieldErrors(result.error.issues);
    throw new Invalid(
      `${what} has ${errors.length} invalid field${errors.length === 1 ? "" : "s"}: ${errors
        .map((e) => `${e.path || "(body)"} ${e.message}`)
        .slice(0, 3)
        .join("; ")}`,
      { errors },
    );
  }
  return result.data;
}
