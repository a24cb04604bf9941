import { readRecordId } from "@/lib/http/record-id";
import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { addOffset } from "@/lib/schedules/add-offset";
import { listOffsets } from "@/lib/schedules/list-offsets";
import { offsetInput } from "@/lib/schedules/schemas";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("schedules.read", (_req, ctx, params) =>
  listOffsets(ctx, readRecordId(params.id, "schedule")),
);

export const POST = adminRoute<Params>("schedules.write", { status: 201 }, async (req, ctx, params) => {
  const id = readRecordId(params.id, "schedule");
  return addOffset(ctx, { scheduleId: id, body: await readJson(req, offsetInput) });
});
