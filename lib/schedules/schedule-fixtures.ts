import { beforeAll } from "vitest";
import { api, createTestProject, type TestProject } from "../../scripts/test/helpers";

/*
 * The set-up of the schedule API test files (schedule-definitions, schedule-assignments,
 * schedule-pause-resume, schedule-roles-and-rules): one project per file, and the calls they make.
 */

// `let`: scheduleProjectForFile() sets it for the calling file (importers see the new value).
export let p: TestProject;

/** Creates the calling file's project; call it at the top of the file. */
export function scheduleProjectForFile(): void {
  beforeAll(async () => {
    p = await createTestProject("schedules-api");
  });
}

/**
 * Defines `trial_end` (single, 7 days before and the default 0 minutes after) in the calling file's
 * project, as schedule-definitions.int.test.ts does: the assignment tests assign it and count its firings.
 */
export function trialEndForFile(): void {
  beforeAll(async () => {
    const res = await admin("POST", "/schedules", {
      name: "trial_end",
      type: "single",
      offsets: [{ offset: "7 days", direction: "before" }],
    });
    if (res.status !== 201) throw new Error(`trial_end not defined: ${res.status} ${JSON.stringify(res.body)}`);
  });
}

export const admin = (method: string, path: string, body?: unknown, key = p.keys.editor) =>
  api(method, p.admin(path), { key, body });
export const client = (method: string, path: string, body?: unknown, key = p.keys.client) =>
  api(method, p.client(path), { key, body });
export const user = async (externalId: string) =>
  (await client("POST", "/users", { identifier: [{ external_id: externalId }] })).body;
