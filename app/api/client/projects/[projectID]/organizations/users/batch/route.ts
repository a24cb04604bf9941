import { membershipBatchRoutes } from "@/lib/organizations/client-routes";

export const { POST } = membershipBatchRoutes();
