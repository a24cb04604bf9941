export const DEFAULT_INVITE_LIFETIME_MS = 48 * 3600_000;
export const MAX_INVITE_LIFETIME_MS = 30 * 24 * 3600_000;
const UNIT_MS = { m: 60_000, h: 3600_000, d: 24 * 3600_000 } as const;

export const EXPIRES_IN_PATTERN = /^([1-9][0-9]{0,5})(m|h|d)$/;

/** `90m`, `24h`, `7d` to milliseconds; null when the syntax is wrong. */
export function parseExpiresIn(value: string): number | null {
  const m = EXPIRES_IN_PATTERN.exec(value.trim());
  if (!m) return null;
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}
