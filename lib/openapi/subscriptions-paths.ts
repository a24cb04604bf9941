import { z } from "zod";
import { mintLinksInput, mintLinksOutput } from "@/lib/links/schemas";
import {
  adminSubscriptionsInput,
  canSendOutput,
  canSendQuery,
  clientSubscriptionsInput,
  groupInput,
  groupOutput,
  groupPatch,
  settingsOutput,
  settingsPatch,
  subscriptionLinksInput,
  subscriptionLinksOutput,
  userSubscriptionOutput,
} from "@/lib/subscriptions/schemas";
import { jsonBody, listOf, projectParams, registerPath, registry } from "./registry";
import { errorResponse, found, gone, jsonResponse, ok } from "./responses";

const client = "/api/client/projects/{projectID}";
const admin = "/api/admin/projects/{projectID}";
const idParams = projectParams.extend({ id: z.uuid() });
const tokenParams = z.object({ token: z.string().meta({ description: "The signed token from the link." }) });
const userSubscriptions = z
  .object({ user_id: z.uuid(), changed: z.number().int().optional(), subscriptions: z.array(userSubscriptionOutput) })
  .meta({ id: "UserSubscriptions" });
const unknownGroup = errorResponse(
  "An unknown user or group; `errors[].path` names the reference. Nothing was written.",
);

registerPath({
  method: "post",
  path: `${client}/users/subscriptions`,
  permission: "subscriptions.write",
  tags: ["Subscriptions"],
  summary: "Set a user's subscription states",
  description:
    "Sets the user's state in each named group (by id or name): `subscribed`, `unsubscribed`, or `null` for unset. Atomic; each real change is stored in the user's history with source `client_api` and recorded as `user.subscription.changed`. Role `client` or above.",
  request: { params: projectParams, body: jsonBody(clientSubscriptionsInput) },
  responses: {
    200: jsonResponse(userSubscriptions, "Every group with the user's state after the change."),
    404: unknownGroup,
  },
});
registerPath({
  method: "get",
  path: `${admin}/subscription-groups`,
  permission: "subscriptions.read",
  tags: ["Subscriptions"],
  summary: "List subscription groups",
  description:
    "Every group of the project, ordered by name, in one page (`next_cursor` is always null): an exception to the newest-first, cursor-paged list contract because groups are configuration that pickers and the preference center show whole, and a project holds at most 200 of them (creating more is a 422). Role `support` or above.",
  request: { params: projectParams },
  responses: ok(listOf(groupOutput, "SubscriptionGroupList"), "The groups."),
});
registerPath({
  method: "post",
  path: `${admin}/subscription-groups`,
  permission: "subscriptions.configure",
  tags: ["Subscriptions"],
  summary: "Create a subscription group (admin)",
  description:
    "A name unique in the project (case-insensitive), a channel, and optionally a policy overriding the project's default.",
  request: { params: projectParams, body: jsonBody(groupInput) },
  responses: {
    201: jsonResponse(groupOutput, "Created."),
    409: errorResponse("The name is taken."),
    422: errorResponse("The project already holds 200 groups."),
  },
});
registerPath({
  method: "patch",
  path: `${admin}/subscription-groups/{id}`,
  permission: "subscriptions.configure",
  tags: ["Subscriptions"],
  summary: "Change a subscription group (admin)",
  request: { params: idParams, body: jsonBody(groupPatch) },
  responses: { ...found(groupOutput, "Changed.", "No such group."), 409: errorResponse("The name is taken.") },
});
registerPath({
  method: "delete",
  path: `${admin}/subscription-groups/{id}`,
  permission: "subscriptions.configure",
  tags: ["Subscriptions"],
  summary: "Delete a subscription group (admin)",
  description: "Deletes the group with every user's state in it and its history.",
  request: { params: idParams },
  responses: gone("Deleted.", "No such group."),
});
registerPath({
  method: "get",
  path: `${admin}/subscription-groups/settings`,
  permission: "subscriptions.read",
  tags: ["Subscriptions"],
  summary: "Read the project's subscription settings",
  description:
    "The default for unset states (`opt_out`: subscribed by default; `opt_in`: explicit opt-in required), whether a Twilio auth token is set, and the SMS webhook URL to give Twilio.",
  request: { params: projectParams },
  responses: ok(settingsOutput, "The settings."),
});
registerPath({
  method: "patch",
  path: `${admin}/subscription-groups/settings`,
  permission: "subscriptions.configure",
  tags: ["Subscriptions"],
  summary: "Change the project's subscription settings (admin)",
  description:
    "Set `default_policy` and the Twilio auth token that verifies inbound SMS (write-only; `null` removes it).",
  request: { params: projectParams, body: jsonBody(settingsPatch) },
  responses: ok(settingsOutput, "The settings after the change."),
});
registerPath({
  method: "get",
  path: `${admin}/users/{id}/subscriptions`,
  permission: "subscriptions.read",
  tags: ["Subscriptions"],
  summary: "Read a user's subscriptions and their history",
  request: { params: idParams },
  responses: found(userSubscriptions, "Every group with the user's state and history.", "No such user."),
});
registerPath({
  method: "put",
  path: `${admin}/users/{id}/subscriptions`,
  permission: "subscriptions.write",
  tags: ["Subscriptions"],
  summary: "Set a user's subscription states (console, operators)",
  description:
    "Same as the client endpoint, by user id. Recorded with source `console` for a console session and `admin_api` for an API key. Role `client` or above.",
  request: { params: idParams, body: jsonBody(adminSubscriptionsInput) },
  responses: {
    200: jsonResponse(userSubscriptions, "Every group with the user's state after the change."),
    404: unknownGroup,
  },
});
registerPath({
  method: "get",
  path: `${admin}/subscriptions/check`,
  permission: "subscriptions.read",
  tags: ["Subscriptions"],
  summary: "Sending filter: may this message go to this user?",
  description:
    "Answers for a user, a group and a channel (default: the group's). An explicit state wins; unset follows the group's policy, else the project's; an SMS STOP blocks the whole SMS channel; a channel other than the group's is refused. A sender calls this per message; journey entries carry the channel part of the answer at entry (`sendable`: a contact and no channel opt-out), so a consumer of entries can filter without a call per user.",
  request: { params: projectParams, query: canSendQuery },
  responses: found(canSendOutput, "The decision and why.", "No such user or group."),
});
registerPath({
  method: "post",
  path: `${admin}/subscription-links`,
  permission: "links.write",
  tags: ["Subscriptions"],
  summary: "Mint a user's unsubscribe and preference-center links (editor)",
  description:
    "Signed URLs for one user. With a group: the one-click unsubscribe URL and the `List-Unsubscribe` / `List-Unsubscribe-Post` headers for the message (RFC 8058).",
  request: { params: projectParams, body: jsonBody(subscriptionLinksInput) },
  responses: found(subscriptionLinksOutput, "The links.", "No such user or group."),
});
registerPath({
  method: "post",
  path: `${admin}/links`,
  permission: "links.write",
  tags: ["Links"],
  summary: "Mint tracked links for a campaign (editor)",
  description:
    "One signed `/l/{token}` URL per destination, bound to the campaign and the recipient. Destinations must be absolute http(s) URLs without credentials. Nothing is stored: the token is the link.",
  request: { params: projectParams, body: jsonBody(mintLinksInput) },
  responses: {
    201: jsonResponse(mintLinksOutput, "The tracked links, in request order."),
    404: errorResponse("No such user."),
  },
});

// Public endpoints: the signed token (or Twilio's signature) is the credential.
const form = (schema: z.ZodType) => ({ required: true, content: { "application/x-www-form-urlencoded": { schema } } });
registry.registerPath({
  method: "get",
  path: "/l/{token}",
  tags: ["Links"],
  summary: "Follow a tracked link",
  description:
    "302 to the original URL and records `link.clicked` (`campaign_id`, `original_url`) on the recipient. `HEAD` answers the same without recording. An unsigned or tampered token is a 404 with no `Location`.",
  request: { params: tokenParams },
  responses: {
    302: { description: "Redirect to the original URL." },
    404: { description: "Not a valid link; redirects nowhere." },
  },
});
registry.registerPath({
  method: "post",
  path: "/u/{token}",
  tags: ["Subscriptions"],
  summary: "One-click unsubscribe (RFC 8058)",
  description:
    "The `List-Unsubscribe` URL. POST unsubscribes the user from the group (mail clients send `List-Unsubscribe=One-Click`); `GET` changes nothing and redirects (303) to the confirmation page `/unsubscribe/{token}`, whose button POSTs here with `from=page`.",
  request: {
    params: tokenParams,
    body: form(z.object({ "List-Unsubscribe": z.literal("One-Click").optional(), from: z.literal("page").optional() })),
  },
  responses: {
    ...found(
      z.object({ unsubscribed: z.literal(true), group: z.string(), changed: z.boolean() }),
      "Unsubscribed (repeating is harmless).",
      "Not a valid link; nothing changed.",
    ),
    303: { description: "From the confirmation page: back to it, showing the result." },
  },
});
registry.registerPath({
  method: "post",
  path: "/api/preferences/{token}",
  tags: ["Subscriptions"],
  summary: "Save the preference center",
  description:
    "The form of `/preferences/{token}`: `group:<id>=subscribed|unsubscribed` per group, or `all=unsubscribed`. Only changed groups are written (source `preference_center`). Redirects (303) back to the page.",
  request: { params: tokenParams, body: form(z.record(z.string(), z.enum(["subscribed", "unsubscribed"]))) },
  responses: { 303: { description: "Back to the page with `?saved=<n>` or `?error=1`." } },
});
registry.registerPath({
  method: "post",
  path: "/api/webhooks/twilio/{projectID}/sms",
  tags: ["Subscriptions"],
  summary: "Twilio inbound SMS webhook",
  description:
    "Configure as the number's \"A message comes in\" webhook (HTTP POST). Verified with `X-Twilio-Signature` and the project's Twilio auth token (403 otherwise). A message that is exactly STOP, STOPALL, UNSUBSCRIBE, CANCEL, END or QUIT (trimmed, any case) unsubscribes every user with that `From` phone from SMS; START or UNSTOP resubscribes. Answers empty TwiML.",
  request: {
    params: projectParams,
    body: form(z.object({ From: z.string(), Body: z.string(), MessageSid: z.string().optional() })),
  },
  responses: {
    200: { description: "Empty TwiML `<Response></Response>`.", content: { "text/xml": { schema: z.string() } } },
    403: errorResponse("Bad signature, or no Twilio token configured."),
  },
});
