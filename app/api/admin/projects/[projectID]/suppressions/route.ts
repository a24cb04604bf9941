import { readQuery } from "@/lib/http/pagination";
import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { createSuppressions } from "@/lib/suppressions/create-suppressions";
import { listSuppressions } from "@/lib/suppressions/list-suppressions";
import { removeSuppression } from "@/lib/suppressions/remove-suppression";
import {
  addSuppressionsBody,
  listSuppressionsQuery,
  removeSuppressionQuery,
  SUPPRESSIONS_BODY_BYTES,
} from "@/lib/suppressions/schemas";

export const GET = adminRoute("suppressions.read", (req, ctx) =>
  listSuppressions(ctx, readQuery(req, listSuppressionsQuery)),
);

export const POST = adminRoute("suppressions.write", async (req, ctx) =>
  createSuppressions(ctx, await readJson(req, addSuppressionsBody, { maxBytes: SUPPRESSIONS_BODY_BYTES })),
);

export const DELETE = adminRoute("suppressions.remove", { status: 204 }, (req, ctx) =>
  removeSuppression(ctx, readQuery(req, removeSuppressionQuery)),
);
