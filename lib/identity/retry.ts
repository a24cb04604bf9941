/** @deprecated Moved to `lib/db/retry.ts`; this re-export goes in the verb-signature sweep. */
export { inRetryingTransaction } from "@/lib/db/retry";
