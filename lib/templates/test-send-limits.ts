import { BUDGETS } from "@/lib/http/budgets";
import { limitOrThrow } from "@/lib/http/rate-limit";

/**
 * A test send reaches any address the caller names, so it has budgets of its own on top of the key's or
 * session's: per project (RATE_LIMIT_TEST_SENDS) and per recipient (RATE_LIMIT_TEST_SENDS_TO), the
 * recipient counted across projects as it is sent to (a valid address, lower-cased; the caller validates
 * first, so a refused address spends nothing), so no inbox or phone can be flooded from Relay.
 * Past either: 429 problem+json with Retry-After.
 */
export async function limitTestSends(projectId: string, to: string): Promise<void> {
  await limitOrThrow("test-send:project", projectId, BUDGETS.testSendsPerProject(), "of test sends for this project");
  await limitOrThrow(
    "test-send:to",
    to.toLowerCase(),
    BUDGETS.testSendsPerRecipient(),
    "of test sends to this address",
  );
}
