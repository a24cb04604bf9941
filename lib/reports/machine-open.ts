import { isIP } from "node:net";

/*
 * Which fetches of the open pixel are machines rather than a person opening the mail. The rule, in order:
 * 1. Apple Mail Privacy Protection: its proxies fetch every image at delivery, from Apple's 17.0.0.0/8,
 *    with a bare `Mozilla/5.0` user agent.
 * 2. Security scanners and link checkers that say what they are in their user agent (Barracuda,
 *    Mimecast, Proofpoint, Microsoft's Safe Links preview, generic bots and HTTP libraries).
 * 3. A fetch within 2 seconds of the send: no person opens a mail that fast; a scanner at delivery does.
 * Gmail's and Yahoo's image proxies fetch when the person opens the mail, so they count as people.
 */

const SCANNERS =
  /(barracuda|mimecast|proofpoint|ppsmtp|forcepoint|trendmicro|symantec|sophos|fortinet|safelinks|bingpreview|bot\b|crawler|spider|scanner|curl\/|wget\/|python-requests|python-urllib|go-http-client|java\/|okhttp|headless)/i;

function inApple(ip: string): boolean {
  const v4 = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  return isIP(v4) === 4 && v4.split(".")[0] === "17";
}

export function isMachineOpen(input: {
  userAgent: string | null;
  ip: string | null;
  sentAt: Date | null;
  at: Date;
}): boolean {
  const ua = (input.userAgent ?? "").trim();
  if (input.ip && inApple(input.ip) && (ua === "" || ua === "Mozilla/5.0")) return true;
  if (ua === "" || SCANNERS.test(ua)) return true;
  if (input.sentAt && input.at.getTime() - input.sentAt.getTime() < 2000) return true;
  return false;
}
