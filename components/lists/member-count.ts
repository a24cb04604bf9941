/** A list's member count as the console shows it: counts past the API's cap read "10,000+". */
export function memberCountLabel(l: { member_count: number; member_count_capped: boolean }): string {
  return `${l.member_count.toLocaleString()}${l.member_count_capped ? "+" : ""}`;
}
