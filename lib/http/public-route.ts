import { getDb, type Db } from "@/db/client";
import { answerError, limitAnonymous } from "./budgets";
import { withHeaders } from "./rate-limit";
import { observed } from "@/lib/observability/request";

type Handler<P> = (req: Request, ctx: { db: Db; params: P }) => Promise<Response>;

/**
 * The wrapper for routes without an API key (signed links, webhooks): the signature in the URL or the
 * request is the credential, checked by the lib verb. It supplies the database and maps every thrown
 * error to problem+json, like withProject does. Every call counts against the caller address's budget.
 */
export function publicRoute<P>(handler: Handler<P>) {
  return observed(async (req: Request, route: { params: Promise<P> }): Promise<Response> => {
    let headers: Record<string, string> = {};
    try {
      headers = await limitAnonymous(req, "public");
      return withHeaders(await handler(req, { db: getDb(), params: await route.params }), headers);
    } catch (err) {
      return answerError(req, err, headers);
    }
  });
}
