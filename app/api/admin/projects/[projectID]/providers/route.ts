import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { createProvider } from "@/lib/providers/create-provider";
import { listProviders } from "@/lib/providers/list-providers";
import { createProviderBody } from "@/lib/providers/schemas";

export const GET = adminRoute("messages.read", (_req, ctx) => listProviders(ctx));

export const POST = adminRoute("providers.write", { status: 201 }, async (req, ctx) =>
  createProvider(ctx, await readJson(req, createProviderBody)),
);
