// The same handlers with the project taken from the API key (what the Lunogram SDKs call).
export { POST, DELETE } from "@/app/api/client/projects/[projectID]/organizations/users/route";
