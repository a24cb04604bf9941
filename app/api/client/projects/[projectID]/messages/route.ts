import { sendMessageRoutes } from "@/lib/messages/client-routes";

export const { POST } = sendMessageRoutes();
