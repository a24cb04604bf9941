import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import type { DestinationView } from "./schemas";
import { destinationViews } from "./view";

/** One destination with its health; 404 when the project has none with this id. */
export async function getDestination(ctx: ProjectContext, id: string): Promise<DestinationView> {
  const [view] = await destinationViews(ctx, { where: sql`d.id = ${id}::uuid`, limit: 1 });
  if (!view) throw new NotFound("No destination with this id in this project.");
  return view;
}
