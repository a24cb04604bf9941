import { isIP } from "node:net";
import { request } from "undici";
import { allowList, forbiddenAddress } from "./allowed-hosts";
import { urlRefusal } from "./check-url";
import { destinationAgent } from "./http-agent";
import { ATTEMPT_TIMEOUT_MS } from "./retry-schedule";
import { signedHeaders, type SigningSecrets } from "./sign";

/** undici's own timeouts (headersTimeout, bodyTimeout, connect timeout), set to the attempt timeout. */
const AGENT_TIMEOUTS = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

/** Errors of a connection that closed under a request before any answer. */
const STALE_CONNECTION = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"]);

/** Kept of each answer for the log. */
export const RESPONSE_KEEP_BYTES = 1024;

export interface AttemptResult {
  at: Date;
  status: number | null;
  latencyMs: number;
  response: string | null;
  error: string | null;
  ok: boolean;
}

/**
 * One signed POST of a message: 2xx is success; anything else (3xx included: redirects are not followed),
 * no answer within 10 s, or a refused address is a failure. Never throws.
 */
export async function postMessage(
  url: string,
  secrets: SigningSecrets,
  webhookId: string,
  body: string,
): Promise<AttemptResult> {
  const at = new Date();
  const started = performance.now();
  const done = (r: Omit<AttemptResult, "at" | "latencyMs" | "ok">): AttemptResult => ({
    ...r,
    at,
    latencyMs: Math.round(performance.now() - started),
    ok: r.status !== null && r.status >= 200 && r.status < 300,
  });
  if (!secrets.current)
    return done({
      status: null,
      response: null,
      error:
        "not sent: the signing secret cannot be read here (RELAY_SIGNING_SECRET or AUTH_SECRET differs from the process that created it)",
    });
  const allow = allowList();
  const refusal = urlRefusal(url, allow);
  if (refusal) return done({ status: null, response: null, error: `refused: the URL ${refusal}` });
  // A literal address never reaches the lookup hook; it is checked here (urlRefusal did, say so again).
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && forbiddenAddress(host, allow))
    return done({ status: null, response: null, error: `refused: ${forbiddenAddress(host, allow)}` });
  try {
    const signal = AbortSignal.timeout(ATTEMPT_TIMEOUT_MS);
    const send = () =>
      request(url, {
        method: "POST",
        dispatcher: destinationAgent(),
        headers: signedHeaders(secrets, webhookId, body, at),
        body,
        signal,
      });
    // A kept-alive connection the receiver closed just as it was reused fails before any answer (Node's
    // servers drop idle connections after 5 s, right when the first retry comes): send once more on a
    // new connection, within the same attempt and timeout. The receiver de-duplicates on webhook-id.
    const res = await send().catch((err) => {
      if (signal.aborted || !STALE_CONNECTION.has((err as { code?: string }).code ?? "")) throw err;
      return send();
    });
    let kept = "";
    let bytes = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) {
      const b = chunk as Buffer;
      if (bytes < RESPONSE_KEEP_BYTES) chunks.push(b.subarray(0, RESPONSE_KEEP_BYTES - bytes));
      bytes += b.length;
      if (bytes > 64 * 1024) {
        res.body.destroy();
        break;
      }
    }
    kept = Buffer.concat(chunks).toString("utf8");
    return done({
      status: res.statusCode,
      response: kept || null,
      error: res.statusCode >= 200 && res.statusCode < 300 ? null : `answered ${res.statusCode}`,
    });
  } catch (err) {
    const e = err as Error & { code?: string; cause?: Error & { code?: string } };
    const cause = e.cause ?? e;
    // The attempt's signal and the agent's own timeouts are the same length, so either may fire first.
    const message =
      e.name === "TimeoutError" || e.name === "AbortError" || AGENT_TIMEOUTS.has(cause.code ?? "")
        ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`
        : cause.message || e.message;
    return done({ status: null, response: null, error: message.slice(0, 500) });
  }
}
