import { answerError } from "@/lib/http/budgets";
import { NotFound } from "@/lib/http/errors";

/**
 * Unknown API paths answer problem+json too, never the HTML 404 page, counted against the caller
 * address's budget with its RateLimit-* headers (probing for endpoints is limited like any anonymous call).
 */
const notFound = async (req: Request) =>
  answerError(req, new NotFound(`No endpoint ${req.method} ${new URL(req.url).pathname}. See /docs/api.`), {});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
