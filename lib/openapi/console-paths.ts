import { z } from "zod";
import { createInviteBody, inviteOutput, listInvitesQuery, myInviteOutput } from "@/lib/invites/schemas";
import { changeKeyBody, createdKeyOutput, createKeyBody, keyOutput, listKeysQuery } from "@/lib/keys/schemas";
import { changeRoleBody, inheritedAdminOutput, listMembersQuery, memberOutput } from "@/lib/members/schemas";
import { createConsoleProjectBody, myOrgOutput, myProjectOutput } from "@/lib/projects/schemas";
import { jsonBody, listOf, projectParams, registerPath } from "./registry";
import { errorResponse, found, gone, jsonResponse, ok } from "./responses";

const base = "/api/admin/projects/{projectID}";
const both: Record<string, string[]>[] = [{ apiKey: [] }, { session: [] }];
const sessionOnly: Record<string, string[]>[] = [{ session: [] }];
const rules = (d: string) => errorResponse(d);

registerPath({
  method: "get",
  path: `${base}/members`,
  permission: "members.read",
  tags: ["Admin: access"],
  security: both,
  summary: "List the roster",
  description:
    "Each member with role and join time, newest first. Org owners and admins are administrators by inheritance and are listed apart under `inherited`. Role `support` or above.",
  request: { params: projectParams, query: listMembersQuery.partial() },
  responses: ok(
    listOf(memberOutput, "RosterMemberList").extend({ inherited: z.array(inheritedAdminOutput) }),
    "The roster.",
  ),
});
registerPath({
  method: "patch",
  path: `${base}/members/{adminID}`,
  permission: "members.write",
  tags: ["Admin: access"],
  security: both,
  summary: "Change a member's role (admin)",
  description:
    "Refused with 422 when the member outranks you, when the role is above yours, or when it would demote the last administrator (org owners and admins count). API keys the member created with a role above the new one are revoked in the same transaction and listed in `revoked_key_ids`.",
  request: { params: projectParams.extend({ adminID: z.uuid() }), body: jsonBody(changeRoleBody) },
  responses: {
    ...found(
      z.object({
        admin_id: z.uuid(),
        role: z.string(),
        joined_at: z.iso.datetime(),
        revoked_key_ids: z.array(z.uuid()),
      }),
      "The new role, and the member's keys revoked because they ranked above it.",
      "Not on the roster.",
    ),
    422: rules("A roster rule refused the change."),
  },
});
registerPath({
  method: "delete",
  path: `${base}/members/{adminID}`,
  permission: "members.write",
  tags: ["Admin: access"],
  security: both,
  summary: "Remove a member (admin)",
  description:
    "Refused with 422 for a member who outranks you or for the last administrator. Every live API key the member created in the project is revoked in the same transaction.",
  request: { params: projectParams.extend({ adminID: z.uuid() }) },
  responses: { ...gone("Removed.", "Not on the roster."), 422: rules("A roster rule refused the removal.") },
});
registerPath({
  method: "get",
  path: `${base}/invites`,
  permission: "invites.read",
  tags: ["Admin: access"],
  security: both,
  summary: "List pending invitations (admin)",
  description: "Invitations neither accepted, revoked nor expired, newest first.",
  request: { params: projectParams, query: listInvitesQuery.partial() },
  responses: ok(listOf(inviteOutput, "InviteList"), "Pending invitations."),
});
registerPath({
  method: "post",
  path: `${base}/invites`,
  permission: "invites.write",
  tags: ["Admin: access"],
  security: both,
  summary: "Invite an e-mail address (admin)",
  description:
    "Role at or below yours (else 422). `expires_in` like `90m`, `24h`, `7d`; default 48h; over 30 days is 422. Re-inviting an address with an open invitation updates it (200) and sends its mail again. The mail's link carries no token: the invitee accepts while signed in with this address. The mail is queued in the same transaction as the invitation and sent by the worker, retried with backoff for over 24 hours: the answer never depends on the SMTP server, and `delivery` shows where the mail stands.",
  request: { params: projectParams, body: jsonBody(createInviteBody) },
  responses: {
    201: jsonResponse(inviteOutput, "Invited."),
    200: jsonResponse(inviteOutput, "The open invitation was updated."),
    422: rules("Role above yours, or expiry over 30 days."),
  },
});
registerPath({
  method: "delete",
  path: `${base}/invites/{inviteID}`,
  permission: "invites.write",
  tags: ["Admin: access"],
  security: both,
  summary: "Revoke an invitation (admin)",
  request: { params: projectParams.extend({ inviteID: z.uuid() }) },
  responses: { ...gone("Revoked.", "No such invitation."), 422: rules("Already accepted or revoked.") },
});
registerPath({
  method: "post",
  path: `${base}/invites/{inviteID}/resend`,
  permission: "invites.write",
  tags: ["Admin: access"],
  security: both,
  summary: "Send an invitation's mail again (admin)",
  description:
    "Queues the mail of a pending invitation again (`delivery: queued`, attempts back to 0), whatever its delivery state; a previous mail job still retrying is superseded and sends nothing.",
  request: { params: projectParams.extend({ inviteID: z.uuid() }) },
  responses: {
    202: jsonResponse(inviteOutput, "Queued again."),
    404: errorResponse("No such invitation."),
    422: rules("Accepted, revoked or expired."),
  },
});
registerPath({
  method: "get",
  path: `${base}/keys`,
  permission: "keys.read",
  tags: ["Admin: access"],
  security: both,
  summary: "List API keys (admin)",
  description: "Live keys with name, role, visible prefix and last use. Secrets are never shown again.",
  request: { params: projectParams, query: listKeysQuery.partial() },
  responses: ok(listOf(keyOutput, "ApiKeyList"), "API keys."),
});
registerPath({
  method: "post",
  path: `${base}/keys`,
  permission: "keys.write",
  tags: ["Admin: access"],
  security: both,
  summary: "Create an API key (admin)",
  description:
    "Role at or below yours (else 422). `rate_limit_per_second` (default 100) and `rate_limit_burst` (default 500) set the key's budget; `allowed_origins` (role `client` only) makes a browser key. The response holds the secret, shown this once; only its SHA-256 is stored.",
  request: { params: projectParams, body: jsonBody(createKeyBody) },
  responses: { 201: jsonResponse(createdKeyOutput, "The key and its secret."), 422: rules("Role above yours.") },
});
registerPath({
  method: "patch",
  path: `${base}/keys/{keyID}`,
  permission: "keys.write",
  tags: ["Admin: access"],
  security: both,
  summary: "Change an API key's rate limit or allowed origins (admin)",
  description:
    "Sets the sustained rate and the burst (together), and/or `allowed_origins` (role `client` only, else 400; `null` removes it). Both apply from the key's next request.",
  request: { params: projectParams.extend({ keyID: z.uuid() }), body: jsonBody(changeKeyBody) },
  responses: found(keyOutput, "The key with its new limits.", "No live key with this id."),
});
registerPath({
  method: "delete",
  path: `${base}/keys/{keyID}`,
  permission: "keys.write",
  tags: ["Admin: access"],
  security: both,
  summary: "Revoke an API key (admin)",
  request: { params: projectParams.extend({ keyID: z.uuid() }) },
  responses: gone("Revoked; the key stops working at once.", "No live key with this id."),
});
registerPath({
  method: "get",
  path: "/api/invites/mine",
  tags: ["Console"],
  security: sessionOnly,
  summary: "My pending invitations",
  description:
    "Pending invitations addressed to the signed-in admin's e-mail (case-insensitive), newest first, paged like every list (`limit`, `cursor`). Needs a console session.",
  request: { query: listInvitesQuery },
  responses: ok(listOf(myInviteOutput, "MyInviteList"), "My invitations."),
});
registerPath({
  method: "post",
  path: "/api/invites/{inviteID}/accept",
  tags: ["Console"],
  security: sessionOnly,
  summary: "Accept an invitation",
  description:
    "Needs a console session whose verified e-mail equals the invited address (else 403). Grants the invited role without lowering a higher one, and adds an outsider to the project's org. Revoked, expired or accepted invitations: 422.",
  request: { params: z.object({ inviteID: z.uuid() }) },
  responses: {
    ...found(
      z.object({ project_id: z.uuid(), project_name: z.string(), role: z.string() }),
      "Accepted; your role in the project.",
      "No such invitation.",
    ),
    422: rules("Not pending."),
  },
});
registerPath({
  method: "get",
  path: "/api/console/projects",
  tags: ["Console"],
  security: sessionOnly,
  summary: "My projects and organizations",
  description: "Projects of orgs you own or administer (admin, inherited) and projects whose roster lists you.",
  responses: ok(z.object({ data: z.array(myProjectOutput), orgs: z.array(myOrgOutput) }), "Projects and orgs."),
});
registerPath({
  method: "post",
  path: "/api/console/projects",
  tags: ["Console"],
  security: sessionOnly,
  summary: "Create a project",
  description:
    "In an org you own or administer (403 otherwise); without one, a new org you own is created. The project starts with the built-in `anniversary` schedule.",
  request: { body: jsonBody(createConsoleProjectBody) },
  responses: { 201: jsonResponse(myProjectOutput, "The project.") },
});
