import { z } from "zod";
import { explainQuery, journeyExplanation, listExplanation, timelineItem, timelineQuery } from "@/lib/explain/schemas";
import { eventTrace } from "@/lib/explain/trace-sections";
import { listOf, projectParams, registerPath } from "./registry";
import { found } from "./responses";

const base = "/api/admin/projects/{projectID}";
const idParams = projectParams.extend({ id: z.uuid() });

registerPath({
  method: "get",
  path: `${base}/lists/{id}/explain`,
  permission: "lists.read",
  tags: ["Admin: explain"],
  summary: "Why a user is or is not in a list",
  description:
    "`member` is what is stored; `matches` is the list's rules evaluated now, by the pipeline's own evaluator, against the user's stored data and events; `rules` is the rule tree with every node's `result` and, on leaves, what was observed: " +
    "for an event rule the events `found` (counting stops at `needed`), the window's bounds and the latest candidates with each `where` clause's value and verdict; for a property rule the value at the path (or that it is missing) and the comparison made. " +
    "`last_change` is the latest stored change with its cause (the event, a rebuild, or who edited a static list). Role `support` or above; a console session works too.",
  request: { params: idParams, query: explainQuery },
  responses: found(listExplanation, "The explanation.", "No such list, or no such user, in this project."),
});
registerPath({
  method: "get",
  path: `${base}/journeys/{id}/explain`,
  permission: "journeys.read",
  tags: ["Admin: explain"],
  summary: "Why a user is or is not in a journey",
  description:
    "Per entrance the latest events that could have entered the user, each condition with the value seen and its verdict, and the member rule for organization events; the re-entry rule's verdict now; the past entries with their entering event. Role `support` or above; a console session works too.",
  request: { params: idParams, query: explainQuery },
  responses: found(journeyExplanation, "The explanation.", "No such journey, or no such user, in this project."),
});
registerPath({
  method: "get",
  path: `${base}/events/{id}/trace`,
  permission: "events.read",
  tags: ["Admin: explain"],
  summary: "Where an event went",
  description:
    "When it was received (and recorded), the record it was recorded against and whether it created it, the schema paths first seen with it, the list memberships it changed, the journey entries it made, and for a `match` event its fan-out. Role `support` or above; a console session works too.",
  request: { params: idParams },
  responses: found(eventTrace, "The trace.", "No such event in this project."),
});
registerPath({
  method: "get",
  path: `${base}/users/{id}/timeline`,
  permission: "users.read",
  tags: ["Admin: explain"],
  summary: "A user's timeline (newest first)",
  description:
    "One feed of the user's events, list membership changes (with their cause), journey entries and exits, schedule firings and subscription changes, newest first, `?limit=` (default 50, max 200) and `?cursor=` (keyset: any page costs the same). Role `support` or above; a console session works too.",
  request: { params: idParams, query: timelineQuery },
  responses: found(listOf(timelineItem, "Timeline"), "A page of the timeline.", "No such user in this project."),
});
