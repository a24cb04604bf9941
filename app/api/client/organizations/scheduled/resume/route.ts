// The same handlers with the project taken from the API key (what the Lunogram SDKs call).
export { POST } from "@/app/api/client/projects/[projectID]/organizations/scheduled/resume/route";
