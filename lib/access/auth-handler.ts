import { Auth, setEnvDefaults } from "@auth/core";
import { publicOrigin } from "@/lib/http/public-origin";
import { MAX_FORM_BYTES } from "@/lib/http/read-form";
import { readLimited } from "@/lib/http/read-json";
import { authConfig } from "./auth";
import { crossSite } from "./magic-link";

const BASE_PATH = "/api/auth";

/**
 * next-auth's HTTP doors (/api/auth/*), served by Auth.js core on a request we rebuild ourselves:
 * - its URL carries the public origin, so the magic link, OAuth redirect URIs and every redirect name
 *   AUTH_URL's host. next-auth's own `handlers` rewrite the URL into a NextRequest, which turns any
 *   loopback host (127.0.0.1) back into `localhost`, a host whose cookies the browser does not hold;
 * - its body has been read through the bounded reader (64 KiB, 413 past it), never buffered whole.
 */
export async function handleAuthRequest(
  req: Request,
  beforeAuth?: (request: Request) => Promise<void>,
): Promise<Response> {
  const { pathname, search } = new URL(req.url);
  // The e-mail callback signs the browser in with whatever token it carries: another site must not be able
  // to send a visitor there with the attacker's link (login CSRF), by GET or any other method. OAuth
  // callbacks arrive cross-site by design and are bound to the browser by their state and PKCE cookies.
  if (pathname.startsWith(`${BASE_PATH}/callback/nodemailer`) && crossSite(req))
    return new Response("Cross-site sign-in refused: open the link from the e-mail and press the button.", {
      status: 403,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  const url = new URL(pathname + search, publicOrigin(req));
  const body = req.method === "POST" ? await readLimited(req, MAX_FORM_BYTES) : undefined;
  const headers = new Headers(req.headers);
  headers.delete("content-length");
  const request = () => new Request(url, { method: req.method, headers, body: body as BodyInit | undefined });
  // A check that reads the body (the sign-in mail limit) gets its own copy of the bytes read once above.
  if (beforeAuth) await beforeAuth(request());
  const config = { ...authConfig(), basePath: BASE_PATH };
  // As next-auth does before each request: AUTH_SECRET, AUTH_TRUST_HOST and the providers' AUTH_* ids.
  config.secret ??= process.env.AUTH_SECRET;
  setEnvDefaults(process.env, config, true);
  return Auth(request(), config);
}
