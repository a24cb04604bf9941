/** @deprecated Moved to `lib/db/errors.ts`; this re-export goes in the verb-signature sweep. */
export { errorCode } from "@/lib/db/errors";
