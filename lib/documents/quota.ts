/** A project's document quota: its own setting, else DOCUMENTS_QUOTA_BYTES, else 100 MB. */
export function documentQuota(own: number | null): number {
  return own ?? Number(process.env.DOCUMENTS_QUOTA_BYTES ?? 100 * 1024 * 1024);
}
