import { pauseRoutes } from "@/lib/schedules/client-routes";

// The project path's routes with the project taken from the API key (what the Lunogram SDKs call).
export const { POST } = pauseRoutes("organization");
