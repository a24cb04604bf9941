import { getDb, type Db } from "@/db/client";
import { errorToResponse } from "./problem";
import { observed } from "@/lib/observability/request";

type Handler<P> = (req: Request, ctx: { db: Db; params: P }) => Promise<Response>;

/**
 * The wrapper for routes without an API key (signed links, webhooks): the signature in the URL or the
 * request is the credential, checked by the lib verb. It supplies the database and maps every thrown
 * error to problem+json, like withProject does.
 */
export function publicRoute<P>(handler: Handler<P>) {
  return observed(async (req: Request, route: { params: Promise<P> }): Promise<Response> => {
    try {
      return await handler(req, { db: getDb(), params: await route.params });
    } catch (err) {
      return errorToResponse(err);
    }
  });
}
