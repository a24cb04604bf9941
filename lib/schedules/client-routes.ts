import type { z } from "zod";
import { readJson } from "@/lib/http/read-json";
import { json, noContent, withProject } from "@/lib/http/with-project";
import { assignSchedule } from "./assign-schedule";
import { pauseAssignment } from "./pause-assignment";
import { resumeAssignment } from "./resume-assignment";
import { type AssignmentInput, pauseInput, resumeInput, type UnassignInput } from "./schemas";
import type { SubjectKind } from "./subject";
import { unassignSchedule } from "./unassign-schedule";

/*
 * The schedule routes of the client API, for users and organizations (`…/users/scheduled`,
 * `…/organizations/scheduled`), each built once for its two paths: `/api/client/projects/{projectID}/…`
 * and `/api/client/…` (the project taken from the API key: what the Lunogram SDKs call). Where the
 * Lunogram Python SDK sends response-only fields, the key path passes the bodies of
 * lib/lunogram/shapes.ts, which tolerate them.
 */

/** `POST` (assign) and `DELETE` (unassign) `…/scheduled`. */
export function scheduledRoutes(
  kind: SubjectKind,
  bodies: { assignment: z.ZodType<AssignmentInput>; unassign: z.ZodType<UnassignInput> },
) {
  return {
    POST: withProject("schedules.assign", async (req, ctx) => {
      const input = await readJson(req, bodies.assignment);
      const { assignment, created } = await assignSchedule(ctx, { kind, body: input });
      return json(assignment, created ? 201 : 200);
    }),
    DELETE: withProject("schedules.assign", async (req, ctx) => {
      await unassignSchedule(ctx, { kind, body: await readJson(req, bodies.unassign) });
      return noContent();
    }),
  };
}

/** `POST …/scheduled/pause`. */
export function pauseRoutes(kind: SubjectKind) {
  return {
    POST: withProject("schedules.assign", async (req, ctx) => {
      const { name, identifier, mode } = await readJson(req, pauseInput);
      return json(await pauseAssignment(ctx, { at: { kind, identifier, name }, mode }));
    }),
  };
}

/** `POST …/scheduled/resume`. */
export function resumeRoutes(kind: SubjectKind) {
  return {
    POST: withProject("schedules.assign", async (req, ctx) => {
      const { name, identifier, mode } = await readJson(req, resumeInput);
      return json(await resumeAssignment(ctx, { at: { kind, identifier, name }, mode }));
    }),
  };
}
