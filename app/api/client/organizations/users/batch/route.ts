// The same handler with the project taken from the API key.
export { POST } from "@/app/api/client/projects/[projectID]/organizations/users/batch/route";
