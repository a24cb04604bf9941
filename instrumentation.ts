/** Runs once as the Next.js server starts. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { stampPeerAddress } = await import("./lib/http/peer-address");
  stampPeerAddress();
}
