import { organizationsRoutes } from "@/lib/organizations/client-routes";
import { organizationInput } from "@/lib/organizations/schemas";
import { identifyInput } from "@/lib/users/schemas";

export const { POST, DELETE } = organizationsRoutes({ organization: organizationInput, identify: identifyInput });
