import { userBatchInput } from "@/lib/users/schemas";
import { userBatchRoutes } from "@/lib/users/client-routes";

export const { POST } = userBatchRoutes({ batch: userBatchInput });
