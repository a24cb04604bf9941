import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { deleteProvider } from "@/lib/providers/delete-provider";
import { getProvider } from "@/lib/providers/get-provider";
import { updateProviderBody } from "@/lib/providers/schemas";
import { updateProvider } from "@/lib/providers/update-provider";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("messages.read", (_req, ctx, p) =>
  getProvider(ctx, readRecordId(p.id, "provider")),
);

export const PATCH = adminRoute<Params>("providers.write", async (req, ctx, p) =>
  updateProvider(ctx, { id: readRecordId(p.id, "provider"), patch: await readJson(req, updateProviderBody) }),
);

export const DELETE = adminRoute<Params>("providers.write", { status: 204 }, (_req, ctx, p) =>
  deleteProvider(ctx, readRecordId(p.id, "provider")),
);
