import { sendMessageRoutes } from "@/lib/messages/client-routes";

// The project path's route with the project taken from the API key.
export const { POST } = sendMessageRoutes();
