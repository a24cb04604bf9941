import { ECHO_NOTE } from "@/lib/lunogram/shapes";
import { acceptedOutput, organizationEventBatch, userEventBatch } from "@/lib/events/schemas";
import { fanoutOutput, listFanoutsQuery } from "@/lib/events/list-fanouts";
import { listSchemaQuery, schemaOutput } from "@/lib/events/list-schema";
import { jsonBody, listOf, projectParams, registerPath } from "./registry";
import { jsonResponse, ok } from "./responses";

const client = "/api/client/projects/{projectID}";
const accepted = {
  202: jsonResponse(acceptedOutput, "Durably enqueued; the worker records and processes them asynchronously."),
};
const rules =
  "Each event needs exactly one of `identifier` (an unknown one creates the record, with its `.created` event) and `match` (every record whose `data` contains the filter gets its own event; none matched records nothing). " +
  "Names are case-sensitive and need no registration; names under `user.`, `organization.`, `list.`, `link.`, `scheduled.` are refused. Optional `timestamp` (ISO 8601, default receipt time) and `id` (a repeat within 7 days is acknowledged and ignored). " +
  "Up to 1,000 events; the batch is atomic: one invalid event refuses all (400, each bad element's path listed). Role `client` or above.";

registerPath({
  method: "post",
  path: `${client}/users/events`,
  permission: "events.write",
  tags: ["Events"],
  summary: "Record user events",
  keyPathNote: ECHO_NOTE,
  description: `\`data\` is required. ${rules} A browser key (a \`client\` key with \`allowed_origins\`) may call it from its listed origins (CORS, \`OPTIONS\` preflight), naming users by \`identifier\` only (\`match\` is 403).`,
  request: { params: projectParams, body: jsonBody(userEventBatch) },
  responses: accepted,
});
registerPath({
  method: "post",
  path: `${client}/organizations/events`,
  permission: "events.write",
  tags: ["Events"],
  summary: "Record organization events",
  keyPathNote: ECHO_NOTE,
  description: `\`data\` is optional. Journey entrances listening for the event enter the organization's members (optionally filtered by a user rule). ${rules}`,
  request: { params: projectParams, body: jsonBody(organizationEventBatch) },
  responses: accepted,
});
registerPath({
  method: "get",
  path: "/api/admin/projects/{projectID}/schema",
  permission: "schema.read",
  tags: ["Admin: data"],
  summary: "The discovered event schema",
  description:
    "Every event name received, with its property paths (`address.city`, `items[]`, `items[].sku`), the JSON types seen there (`string`, `number`, `boolean`, `null`, `object`, `array`, `date` for ISO 8601 strings), how many events carried each, and first/last seen. Filter with `?name=`. Role `support` or above.",
  request: { params: projectParams, query: listSchemaQuery },
  responses: ok(schemaOutput, "The schema, by event name."),
});
registerPath({
  method: "get",
  path: "/api/admin/projects/{projectID}/events/fanouts",
  permission: "events.read",
  tags: ["Admin: data"],
  summary: "List match deliveries",
  description:
    "Each `match` event with how many users (organizations) it reached, newest first; a finished one with `delivered: 0` matched nobody and recorded nothing. Role `support` or above.",
  request: { params: projectParams, query: listFanoutsQuery },
  responses: ok(listOf(fanoutOutput, "FanoutList"), "A page of fan-outs."),
});
