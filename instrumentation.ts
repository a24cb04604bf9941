/** Runs once as the Next.js server starts. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // No server without a public origin in production: links made from a request's Host could point anywhere.
  const { exitUnlessPublicOriginConfigured } = await import("./lib/http/public-origin");
  exitUnlessPublicOriginConfigured();
  // Under `npm start`, the web server leaves with its supervisor, however the supervisor ended.
  const { exitWithSupervisor } = await import("./lib/observability/supervisor");
  exitWithSupervisor(() => {});
  const { stampPeerAddress } = await import("./lib/http/peer-address");
  stampPeerAddress();
  const { mailConfigured, MAIL_NOT_CONFIGURED } = await import("./lib/mail/mail-configured");
  if (!mailConfigured()) {
    const { log } = await import("./lib/observability/logger");
    log.warn(`[web] ${MAIL_NOT_CONFIGURED}`);
  }
}
