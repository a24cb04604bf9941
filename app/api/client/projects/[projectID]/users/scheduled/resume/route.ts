import { resumeRoutes } from "@/lib/schedules/client-routes";

export const { POST } = resumeRoutes("user");
