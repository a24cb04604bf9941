import { z } from "zod";
import {
  createDestinationBody,
  createdDestinationOutput,
  deliveryOutput,
  destinationOutput,
  listDeliveriesQuery,
  listDestinationsQuery,
  replayBody,
  replayOutput,
  rotatedSecretOutput,
  updateDestinationBody,
} from "@/lib/destinations/schemas";
import { jsonBody, listOf, projectParams, registerPath } from "./registry";
import { errorResponse, found, gone, jsonResponse, ok } from "./responses";

const base = "/api/admin/projects/{projectID}/destinations";
const tags = ["Admin: destinations"];
const idParams = projectParams.extend({ id: z.uuid() });
const missing = "No such destination.";
const badUrl = errorResponse(
  "Invalid body; a URL that is not https (or http to a host in DESTINATIONS_ALLOW_HOSTS) or names a private, loopback or link-local address is refused with `errors[0].path` = `url`.",
);

registerPath({
  method: "get",
  path: base,
  permission: "destinations.read",
  tags,
  summary: "List destinations (newest first), with their health",
  description:
    "Each destination with its health: attempts and success rate over 24 h, last error, backlog. Never the secret. Role `support` or above.",
  request: { params: projectParams, query: listDestinationsQuery },
  responses: ok(listOf(destinationOutput, "DestinationList"), "A page of destinations."),
});
registerPath({
  method: "post",
  path: base,
  permission: "destinations.write",
  tags,
  summary: "Create a destination",
  description:
    "Events whose name matches `events` (and whose data contains `filter`) are POSTed to `url` as Standard Webhooks messages, at least once. The answer carries the signing secret (`whsec_…`) this once. Role `editor` or above.",
  request: { params: projectParams, body: jsonBody(createDestinationBody) },
  responses: { 201: jsonResponse(createdDestinationOutput, "Created; `secret` is shown only here."), 400: badUrl },
});
registerPath({
  method: "get",
  path: `${base}/{id}`,
  permission: "destinations.read",
  tags,
  summary: "Read a destination with its health",
  request: { params: idParams },
  responses: found(destinationOutput, "The destination.", missing),
});
registerPath({
  method: "patch",
  path: `${base}/{id}`,
  permission: "destinations.write",
  tags,
  summary: "Change a destination; enable or disable it",
  description:
    "Turning a destination on clears why Relay turned it off; its waiting messages go out. Role `editor` or above.",
  request: { params: idParams, body: jsonBody(updateDestinationBody) },
  responses: { ...found(destinationOutput, "The destination.", missing), 400: badUrl },
});
registerPath({
  method: "delete",
  path: `${base}/{id}`,
  permission: "destinations.write",
  tags,
  summary: "Delete a destination and its delivery log",
  request: { params: idParams },
  responses: gone("Deleted.", missing),
});
registerPath({
  method: "post",
  path: `${base}/{id}/rotate-secret`,
  permission: "destinations.write",
  tags,
  summary: "Rotate the signing secret",
  description:
    "Makes a new secret, shown this once. For 24 h every message carries two signatures (new and old secret) in `webhook-signature`, so receivers switch without losing a message.",
  request: { params: idParams },
  responses: found(rotatedSecretOutput, "The new secret.", missing),
});
registerPath({
  method: "post",
  path: `${base}/{id}/test`,
  permission: "destinations.write",
  tags,
  summary: "Send a signed test ping now",
  description: 'POSTs `{"type": "relay.ping"}` now and answers with the delivery and its attempt; it is not retried.',
  request: { params: idParams },
  responses: found(deliveryOutput, "The ping's delivery with its attempt.", missing),
});
registerPath({
  method: "get",
  path: `${base}/{id}/deliveries`,
  permission: "destinations.read",
  tags,
  summary: "The delivery log (newest first)",
  description:
    "Each message with its `webhook_id`, event, state, attempts (time, status, latency, the answer's first 1 KiB) and when the next attempt is due. Filter with `state`.",
  request: { params: idParams, query: listDeliveriesQuery },
  responses: found(listOf(deliveryOutput, "DeliveryList"), "A page of deliveries.", missing),
});
registerPath({
  method: "post",
  path: `${base}/{id}/deliveries/{deliveryId}/retry`,
  permission: "destinations.write",
  tags,
  summary: "Send a message again now, with its original webhook-id",
  request: { params: idParams.extend({ deliveryId: z.uuid() }) },
  responses: { 202: jsonResponse(deliveryOutput, "Due now."), 404: errorResponse("No such delivery.") },
});
registerPath({
  method: "post",
  path: `${base}/{id}/replay`,
  permission: "destinations.replay",
  tags,
  summary: "Re-send a window of past events",
  description:
    "Queues the events recorded in the window that the destination subscribes to as new messages. At most 7 days and 10,000 messages (422 beyond: nothing is queued). Role `admin`.",
  request: { params: idParams, body: jsonBody(replayBody) },
  responses: {
    202: jsonResponse(replayOutput, "Queued."),
    404: errorResponse(missing),
    422: errorResponse("The window is longer than 7 days or holds more than 10,000 messages."),
  },
});
