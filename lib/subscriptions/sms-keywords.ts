/** The standard opt-out and opt-in keywords carriers and Twilio honour. */
export const OPT_OUT_KEYWORDS = ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"] as const;
export const OPT_IN_KEYWORDS = ["START", "UNSTOP"] as const;

/**
 * A keyword counts only when it is the whole message, trimmed, case-insensitive, ignoring trailing
 * punctuation ("Stop." still means stop). "please don't stop" is a sentence, not an opt-out.
 */
export function classifySms(body: string): "opt_out" | "opt_in" | null {
  const word = body
    .trim()
    .replace(/[.!]+$/, "")
    .trim()
    .toUpperCase();
  if ((OPT_OUT_KEYWORDS as readonly string[]).includes(word)) return "opt_out";
  if ((OPT_IN_KEYWORDS as readonly string[]).includes(word)) return "opt_in";
  return null;
}
