import { NotFound } from "@/lib/http/errors";
import { problemResponse } from "@/lib/http/problem";

/** Unknown API paths answer problem+json too, never the HTML 404 page. */
const notFound = async (req: Request) =>
  problemResponse(new NotFound(`No endpoint ${req.method} ${new URL(req.url).pathname}. See /docs/api.`));

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
