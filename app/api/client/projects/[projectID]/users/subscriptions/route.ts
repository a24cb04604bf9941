import { subscriptionsRoutes } from "@/lib/subscriptions/client-routes";

export const { POST } = subscriptionsRoutes();
