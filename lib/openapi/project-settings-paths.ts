import { projectSettingsOutput, projectSettingsPatch } from "@/lib/projects/settings-schemas";
import { jsonBody, projectParams, registerPath } from "./registry";
import { errorResponse, jsonResponse, ok } from "./responses";

const path = "/api/admin/projects/{projectID}";

registerPath({
  method: "get",
  path,
  permission: "project.read",
  tags: ["Admin: project"],
  summary: "Read the project's settings",
  description:
    "Its name and event retention (`event_retention_days`, null = forever). Role `support` or above; a console session works too.",
  request: { params: projectParams },
  responses: ok(projectSettingsOutput, "The project's settings."),
});
registerPath({
  method: "patch",
  path,
  permission: "project.configure",
  tags: ["Admin: project"],
  summary: "Rename the project or change its settings",
  description:
    "`event_retention_days`: events older than this (by the client's `timestamp`, else their receipt) are deleted by the worker within `RETENTION_INTERVAL` (default 1h); null keeps them forever. " +
    "Refused with 400 while a dynamic list's `within_days` is longer; and a list rule looking back further than the retention is refused the same way. " +
    "`bounce_policy`: `{soft_bounces, within}`, the soft bounces of one address within the window that suppress it (null: 3 within 7 days); it applies from the next soft bounce recorded. Role `admin`.",
  request: { params: projectParams, body: jsonBody(projectSettingsPatch) },
  responses: {
    200: jsonResponse(projectSettingsOutput, "The project's settings."),
    400: errorResponse("Invalid body, or a dynamic list looks back further than the new retention."),
  },
});
