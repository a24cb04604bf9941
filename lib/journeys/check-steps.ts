import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows, uuidArray } from "@/lib/db/sql";
import { Invalid } from "@/lib/http/errors";
import { getTemplate } from "@/lib/templates/get-template";
import { sendableChannels } from "@/lib/messages/sendable-channels";
import { checkInterval } from "@/lib/schedules/interval";
import { graphErrors } from "./step-graph";
import type { Step } from "./step-schema";
import { isTimeZone } from "./time-zone";

type FieldError = { path: string; message: string };

/**
 * The shortest delay or wait timeout that counts as a cycle's pause (JOURNEY_MIN_CYCLE_PAUSE, default one
 * minute): a cycle through shorter ones only would spin, writing a path row and its effects each pass.
 */
export function minCyclePause(): string {
  return process.env.JOURNEY_MIN_CYCLE_PAUSE?.trim() || "1 minute";
}

/**
 * Everything the schema alone cannot say about a journey's steps, each error naming its step by path
 * (`steps[3].next`): a delay or wait with both or neither of its forms, durations PostgreSQL would not
 * take, the graph's faults (step-graph.ts; a cycle's pause is measured against minCyclePause()), a zone
 * that is none, a list of another project, a `send` to a template of another project or of a channel the
 * project cannot send on. Runs before anything is written.
 */
export async function checkSteps(ctx: ProjectContext, steps: Step[]): Promise<void> {
  const errors: FieldError[] = [];
  steps.forEach((s, i) => {
    if (s.kind === "delay" && !s.duration === !s.until)
      errors.push({ path: `steps[${i}]`, message: "a delay takes either `duration` or `until`" });
    if (s.kind === "delay" && s.until && s.until.timezone !== "user" && !isTimeZone(s.until.timezone))
      errors.push({ path: `steps[${i}].until.timezone`, message: "`user` or an IANA time zone like Europe/Vienna" });
    if (s.kind === "wait" && !s.event === !s.list)
      errors.push({ path: `steps[${i}]`, message: "a wait takes either `event` or `list`" });
    if (s.kind === "wait" && s.timeout_next && !s.timeout)
      errors.push({ path: `steps[${i}].timeout_next`, message: "only with a `timeout`" });
  });
  if (errors.length) throw invalid(errors);
  // Delays and timeouts shorter than the minimum are allowed, but do not count as a cycle's pause.
  const shortPauses = new Set<string>();
  const floor = minCyclePause();
  for (const [i, s] of steps.entries()) {
    const value = s.kind === "delay" ? s.duration : s.kind === "wait" ? s.timeout : undefined;
    if (!value) continue;
    const path = `steps[${i}].${s.kind === "delay" ? "duration" : "timeout"}`;
    if ((await checkInterval(ctx, { value, path, floor })).belowFloor) shortPauses.add(s.key);
  }
  errors.push(...graphErrors(steps, { shortPauses }));
  if (errors.length) throw invalid(errors);
  const lists = steps.flatMap((s, i) => (s.kind === "wait" && s.list ? [{ i, id: s.list.list_id }] : []));
  if (lists.length) {
    const found = await queryRows<{ id: string }>(
      ctx.db,
      sql`select id from lists where project_id = ${ctx.projectId}::uuid and id = any(${uuidArray(lists.map((l) => l.id))})`,
    );
    const known = new Set(found.map((r) => r.id));
    const missing = lists.filter((l) => !known.has(l.id));
    if (missing.length)
      throw invalid(
        missing.map((l) => ({ path: `steps[${l.i}].list.list_id`, message: "no such list in this project" })),
      );
  }
  await checkSends(ctx, steps);
}

async function checkSends(ctx: ProjectContext, steps: Step[]): Promise<void> {
  const sends = steps.flatMap((s, i) => (s.kind === "send" ? [{ i, id: s.template_id }] : []));
  if (!sends.length) return;
  const channels = await sendableChannels(ctx);
  const errors: FieldError[] = [];
  for (const { i, id } of sends) {
    const template = await getTemplate(ctx, id).catch(() => null);
    if (!template) errors.push({ path: `steps[${i}].template_id`, message: "no such template in this project" });
    else if (!channels.has(template.channel as never))
      errors.push({
        path: `steps[${i}].template_id`,
        message: `the project cannot send on ${template.channel}: configure a provider for it first`,
      });
  }
  if (errors.length) throw invalid(errors);
}

function invalid(errors: FieldError[]): Invalid {
  return new Invalid(`The journey's steps are not valid: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}.`, {
    errors,
  });
}
