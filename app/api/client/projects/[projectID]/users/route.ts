import { identifyInput, userInput } from "@/lib/users/schemas";
import { usersRoutes } from "@/lib/users/client-routes";

export const { POST, DELETE, OPTIONS } = usersRoutes({ user: userInput, identify: identifyInput });
