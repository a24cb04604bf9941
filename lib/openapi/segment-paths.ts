import { segmentBatch, segmentCall, segmentOk, SEGMENT_TYPES } from "@/lib/segment/schemas";
import { PERMISSIONS, type Permission } from "@/lib/access/permissions";
import { jsonBody, registry } from "./registry";
import { COMMON_ERRORS, errorResponse, jsonResponse } from "./responses";

registry.registerComponent("securitySchemes", "writeKey", {
  type: "http",
  scheme: "basic",
  description:
    "Segment's convention: the API key (role `client`) as the Basic user name, empty password. `Bearer` works too.",
});

const MAPPING: Record<string, string> = {
  track:
    "One event named `event` with `properties` as data, `messageId` as its client id (a repeat within 7 days is ignored) and `timestamp` as its time.",
  identify:
    "Upserts the user: `userId` → identifier `(default, userId)`, `anonymousId` → `(anonymous, anonymousId)`; `traits.email`, `phone`, `timezone`, `locale` go to those fields, every other trait to `data`.",
  group:
    "Upserts the organization `(default, groupId)` (`traits.name` → name, other traits → data), creates the user if new, and adds the membership.",
  alias:
    "Puts `userId` and `previousId` on one user (`previousId` is taken as a userId if one exists, else as an anonymousId). Two existing users are a 409.",
  page: "One event `page_viewed` with `name`, `category` and `properties` as data.",
  screen: "One event `screen_viewed` with `name`, `category` and `properties` as data.",
};

/** What each route's `withProject` checks (all role `client`). */
const PERMISSION: Record<string, Permission> = {
  track: "events.write",
  page: "events.write",
  screen: "events.write",
  identify: "users.write",
  alias: "users.write",
  group: "organizations.write",
  batch: "events.write",
};
const access = (type: string) => ({
  "x-permission": PERMISSION[type]!,
  "x-required-role": PERMISSIONS[PERMISSION[type]!],
});

for (const type of SEGMENT_TYPES) {
  registry.registerPath({
    ...access(type),
    method: "post",
    path: `/api/v1/${type}`,
    tags: ["Segment"],
    summary: `Segment ${type}`,
    description: `${MAPPING[type]} Also served at \`/v1/${type}\`. Fields we do not map (\`context\`, \`integrations\`, ...) are kept in the event's \`data.segment\`.`,
    security: [{ writeKey: [] }, { apiKey: [] }],
    request: { body: jsonBody(segmentCall(type)) },
    responses: {
      ...COMMON_ERRORS,
      200: jsonResponse(segmentOk, "Accepted, as Segment answers."),
      400: errorResponse("A malformed message; `errors[].path` names the Segment field."),
    },
  });
}
registry.registerPath({
  ...access("batch"),
  method: "post",
  path: "/api/v1/batch",
  tags: ["Segment"],
  summary: "Segment batch",
  description:
    "Up to 1,000 messages of any type (`type` on each), applied in order, all or nothing. Also served at `/v1/batch` (what `@segment/analytics-node` calls).",
  security: [{ writeKey: [] }, { apiKey: [] }],
  request: { body: jsonBody(segmentBatch) },
  responses: {
    ...COMMON_ERRORS,
    200: jsonResponse(segmentOk, "Accepted."),
    400: errorResponse("A malformed message; paths like `batch[3].event`."),
    409: errorResponse("An identify or alias names two existing users; nothing was written."),
  },
});
