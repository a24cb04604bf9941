import { membershipRoutes } from "@/lib/organizations/client-routes";

export const { POST, DELETE } = membershipRoutes();
