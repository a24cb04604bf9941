import { z } from "zod";
import {
  broadcastOutput,
  createBroadcastBody,
  listBroadcastsQuery,
  updateBroadcastBody,
} from "@/lib/broadcasts/schemas";
import {
  createProviderBody,
  dkimRecordOutput,
  generateDkimBody,
  providerOutput,
  updateProviderBody,
} from "@/lib/providers/schemas";
import {
  createTemplateBody,
  listTemplatesQuery,
  previewOutput,
  previewTemplateBody,
  templateOutput,
  testSendOutput,
  testTemplateBody,
  updateTemplateBody,
} from "@/lib/templates/schemas";
import { listMessagesQuery, messageDetailOutput, messageOutput } from "@/lib/messages/schemas";
import { jsonBody, listOf, projectParams, registerPath } from "./registry";
import { errorResponse, found, gone, jsonResponse, ok } from "./responses";

const root = "/api/admin/projects/{projectID}";
const idParams = projectParams.extend({ id: z.uuid() });

// Providers
{
  const base = `${root}/providers`;
  const tags = ["Admin: messages"];
  const missing = "No such provider.";
  const refused = errorResponse(
    "Invalid body; a host that is a private, loopback or link-local address (unless DESTINATIONS_ALLOW_HOSTS lists it) is refused naming `url` or `api_base`.",
  );
  registerPath({
    method: "get",
    path: base,
    permission: "messages.read",
    tags,
    summary: "List the project's message providers",
    description:
      "At most one per channel. `deployment_email` says whether the deployment's SMTP_URL sends e-mail for projects without an e-mail provider. Never a password or auth token. Role `support` or above.",
    request: { params: projectParams },
    responses: ok(listOf(providerOutput, "ProviderList").extend({ deployment_email: z.boolean() }), "The providers."),
  });
  registerPath({
    method: "post",
    path: base,
    permission: "providers.write",
    tags,
    summary: "Add a provider (SMTP for e-mail, Twilio-compatible for SMS)",
    description:
      "The SMTP URL (with its password) and the Twilio auth token are stored sealed and never answered again; the URL is shown with its password masked. One provider per channel (409 for a second). Role `admin`.",
    request: { params: projectParams, body: jsonBody(createProviderBody) },
    responses: {
      201: jsonResponse(providerOutput, "Created."),
      400: refused,
      409: errorResponse("The project has a provider for this channel."),
    },
  });
  registerPath({
    method: "get",
    path: `${base}/{id}`,
    permission: "messages.read",
    tags,
    summary: "Read a provider",
    request: { params: idParams },
    responses: found(providerOutput, "The provider.", missing),
  });
  registerPath({
    method: "patch",
    path: `${base}/{id}`,
    permission: "providers.write",
    tags,
    summary: "Change a provider (a new URL or auth token is sealed again)",
    request: { params: idParams, body: jsonBody(updateProviderBody) },
    responses: { ...found(providerOutput, "The provider.", missing), 400: refused },
  });
  registerPath({
    method: "delete",
    path: `${base}/{id}`,
    permission: "providers.write",
    tags,
    summary: "Delete a provider",
    description:
      "E-mail then goes through the deployment's SMTP_URL where it serves projects (development, or DEPLOYMENT_SMTP_FOR_PROJECTS=true); SMS messages fail until another provider is added.",
    request: { params: idParams },
    responses: gone("Deleted.", missing),
  });
  registerPath({
    method: "post",
    path: `${base}/{id}/dkim`,
    permission: "providers.write",
    tags,
    summary: "Make a DKIM key for an e-mail provider and answer the TXT record to publish",
    description:
      "A new 2048-bit RSA key replaces any other; the private key is stored sealed and never answered. Every e-mail of the provider is then signed (relaxed/relaxed; `h=` covers From, To, Subject, Date, Message-ID, List-Unsubscribe, List-Unsubscribe-Post, MIME-Version and Content-Type where present). Publish the record before sending. Role `admin`.",
    request: { params: idParams, body: jsonBody(generateDkimBody) },
    responses: {
      ...found(dkimRecordOutput, "The key's DNS record.", missing),
      400: errorResponse("Invalid body, or the provider is not an SMTP provider."),
    },
  });
}

// Templates
{
  const base = `${root}/templates`;
  const tags = ["Admin: messages"];
  const missing = "No such template.";
  const compile = errorResponse(
    "Invalid body, or a part that does not compile: `errors[0].path` names the part (`html`, `locales.de.subject`) and the message its line and column.",
  );
  registerPath({
    method: "get",
    path: base,
    permission: "messages.read",
    tags,
    summary: "List templates",
    request: { params: projectParams, query: listTemplatesQuery },
    responses: ok(listOf(templateOutput, "TemplateList"), "A page of templates."),
  });
  registerPath({
    method: "post",
    path: base,
    permission: "templates.write",
    tags,
    summary: "Create a Liquid template",
    description:
      "Liquid (liquidjs) with limits: lookups see own properties only, each render is bounded in time and memory. Variables: `user` (id, email, phone, locale, timezone, data, identifiers), `organization`, `journey.<key>`, `project`, `unsubscribe_url`, `preferences_url`. The variant used is the user's locale, else its language, else the default. Role `editor` or above.",
    request: { params: projectParams, body: jsonBody(createTemplateBody) },
    responses: {
      201: jsonResponse(templateOutput, "Created."),
      400: compile,
      404: errorResponse("No such subscription group."),
      409: errorResponse("A template of this name exists."),
    },
  });
  registerPath({
    method: "get",
    path: `${base}/{id}`,
    permission: "messages.read",
    tags,
    summary: "Read a template",
    request: { params: idParams },
    responses: found(templateOutput, "The template.", missing),
  });
  registerPath({
    method: "patch",
    path: `${base}/{id}`,
    permission: "templates.write",
    tags,
    summary: "Change a template (compiled again as a whole)",
    request: { params: idParams, body: jsonBody(updateTemplateBody) },
    responses: { ...found(templateOutput, "The template.", missing), 400: compile },
  });
  registerPath({
    method: "delete",
    path: `${base}/{id}`,
    permission: "templates.write",
    tags,
    summary: "Delete a template and its messages' log",
    request: { params: idParams },
    responses: { ...gone("Deleted.", missing), 422: errorResponse("A broadcast uses the template.") },
  });
  registerPath({
    method: "post",
    path: `${base}/{id}/preview`,
    permission: "messages.read",
    tags,
    summary: "Render a template for a user",
    description:
      "As the user's message would be (locale variant, tracked links); nothing is sent. Role `support` or above.",
    request: { params: idParams, body: jsonBody(previewTemplateBody) },
    responses: {
      ...found(previewOutput, "The rendered parts.", "No such template or user."),
      400: errorResponse("Invalid body, or the template does not render for this user (a limit or an error)."),
    },
  });
  registerPath({
    method: "post",
    path: `${base}/{id}/test`,
    permission: "templates.write",
    tags,
    summary: "Send one test rendering to an address now",
    description:
      "Rendered as `user_id` or an empty user, subject prefixed `[test]`, through the project's provider (or the deployment's SMTP_URL); not logged as a message and not retried. Role `editor` or above. Limited per project (`RATE_LIMIT_TEST_SENDS`, 60 an hour) and per recipient (`RATE_LIMIT_TEST_SENDS_TO`, 10 an hour): past either, `429` with `Retry-After`.",
    request: { params: idParams, body: jsonBody(testTemplateBody) },
    responses: found(testSendOutput, "What the provider answered.", missing),
  });
}

// Messages log
{
  const base = `${root}/messages`;
  const tags = ["Admin: messages"];
  registerPath({
    method: "get",
    path: base,
    permission: "messages.read",
    tags,
    summary: "The messages log (newest first)",
    description:
      "One row per message, keyed by its cause (a journey entry's step, or a broadcast's recipient): channel, template, recipient, state, reason, attempts, the provider's message id, the rendered subject. Filter by user, template, journey, broadcast and state.",
    request: { params: projectParams, query: listMessagesQuery },
    responses: ok(listOf(messageOutput, "MessageList"), "A page of messages."),
  });
  registerPath({
    method: "get",
    path: `${base}/{id}`,
    permission: "messages.read",
    tags,
    summary: "One message, with its content rendered now",
    request: { params: idParams },
    responses: found(messageDetailOutput, "The message.", "No such message."),
  });
}

// Broadcasts
{
  const base = `${root}/broadcasts`;
  const tags = ["Admin: messages"];
  const missing = "No such broadcast.";
  registerPath({
    method: "get",
    path: base,
    permission: "messages.read",
    tags,
    summary: "List broadcasts (newest first) with their counts",
    request: { params: projectParams, query: listBroadcastsQuery },
    responses: ok(listOf(broadcastOutput, "BroadcastList"), "A page of broadcasts."),
  });
  registerPath({
    method: "post",
    path: base,
    permission: "broadcasts.write",
    tags,
    summary: "Schedule a broadcast of a template to a list",
    description:
      "At `send_at` the list's members become the recipients, one message each (exactly once across worker restarts); each goes through the same rules as any message (subscriptions, caps, quiet hours). States: `scheduled`, `sending`, `done` (every message final), `cancelled`. Role `editor` or above.",
    request: { params: projectParams, body: jsonBody(createBroadcastBody) },
    responses: {
      201: jsonResponse(broadcastOutput, "Scheduled."),
      404: errorResponse("No such template or list."),
    },
  });
  registerPath({
    method: "get",
    path: `${base}/{id}`,
    permission: "messages.read",
    tags,
    summary: "Read a broadcast with its progress",
    request: { params: idParams },
    responses: found(broadcastOutput, "The broadcast.", missing),
  });
  registerPath({
    method: "patch",
    path: `${base}/{id}`,
    permission: "broadcasts.write",
    tags,
    summary: "Change a scheduled broadcast",
    request: { params: idParams, body: jsonBody(updateBroadcastBody) },
    responses: { ...found(broadcastOutput, "The broadcast.", missing), 422: errorResponse("It has started.") },
  });
  registerPath({
    method: "delete",
    path: `${base}/{id}`,
    permission: "broadcasts.write",
    tags,
    summary: "Delete a broadcast that is not sending (its messages stay in the log)",
    request: { params: idParams },
    responses: { ...gone("Deleted.", missing), 422: errorResponse("It is sending: cancel it first.") },
  });
  registerPath({
    method: "post",
    path: `${base}/{id}/cancel`,
    permission: "broadcasts.write",
    tags,
    summary: "Cancel a broadcast",
    description:
      "Messages not yet handed to a provider are skipped (`cancelled`); the few in a sender's hands at that moment finish (each once).",
    request: { params: idParams },
    responses: { ...found(broadcastOutput, "The broadcast.", missing), 422: errorResponse("It is done or cancelled.") },
  });
}
