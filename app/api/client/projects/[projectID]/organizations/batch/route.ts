import { organizationBatchRoutes } from "@/lib/organizations/client-routes";

export const { POST } = organizationBatchRoutes();
