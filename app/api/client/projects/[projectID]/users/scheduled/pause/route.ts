import { pauseRoutes } from "@/lib/schedules/client-routes";

export const { POST } = pauseRoutes("user");
