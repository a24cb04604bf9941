import { readRecordId } from "@/lib/http/record-id";
import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { addOffset } from "@/lib/schedules/add-offset";
import { listOffsets } from "@/lib/schedules/list-offsets";
import { offsetInput } from "@/lib/schedules/schemas";

type Params = { projectID: string; id: string };

export const GET = withProject<Params>(
  "schedules.read",
  async (_req, ctx, params) => json(await listOffsets(ctx, readRecordId(params.id, "schedule"))),
  { sessions: true },
);

export const POST = withProject<Params>(
  "schedules.write",
  async (req, ctx, params) => {
    const id = readRecordId(params.id, "schedule");
    return json(await addOffset(ctx, { scheduleId: id, body: await readJson(req, offsetInput) }), 201);
  },
  { sessions: true },
);
