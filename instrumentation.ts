/** Runs once as the Next.js server starts. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // No server without a public origin in production: links made from a request's Host could point anywhere.
  const { exitUnlessPublicOriginConfigured } = await import("./lib/http/public-origin");
  exitUnlessPublicOriginConfigured();
  const { stampPeerAddress } = await import("./lib/http/peer-address");
  stampPeerAddress();
  const { mailConfigured, MAIL_NOT_CONFIGURED } = await import("./lib/mail/mail-configured");
  if (!mailConfigured()) {
    const { log } = await import("./lib/observability/logger");
    log.warn(`[web] ${MAIL_NOT_CONFIGURED}`);
  }
}
