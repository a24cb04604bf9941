"use client";
import { useQuery } from "@tanstack/react-query";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { adminPath, apiFetch } from "@/components/console/api";
import { ConditionRow } from "@/components/rule-builder/condition-row";
import { FieldError } from "@/components/rule-builder/field-error";
import { RuleGroup, newPropertyRule, type Schema } from "@/components/rule-builder/rule-group";
import { Button } from "@/components/ui/button";
import { Badge, controlClass } from "@/components/ui/states";
import type { ScheduleView } from "@/lib/schedules/schemas";

/** Fields every `scheduled.*` event carries besides the assignment's data (lib/schedules/fire-due.ts). */
const SCHEDULED_FIELDS = ["schedule_id", "schedule_offset_id", "offset", "fire_at"];

export function useSchedules(projectId: string) {
  return useQuery({
    queryKey: ["schedules", projectId],
    queryFn: () => apiFetch<{ data: ScheduleView[] }>(adminPath(projectId, "/schedules?limit=500")),
    staleTime: 30_000,
  });
}

/** The `journey.<data_key>.<property>` paths an entrance exposes, shown as the admin types. */
function ExposedPaths({ dataKey, props }: { dataKey: string; props: string[] }) {
  const key = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(dataKey) ? dataKey : "…";
  return (
    <div className="text-xs text-zinc-500" aria-live="polite" data-testid="exposed-paths">
      Downstream steps read:{" "}
      {props.length ? (
        props.slice(0, 12).map((p) => (
          <code key={p} className="mr-1 inline-block rounded bg-zinc-100 px-1 font-mono text-zinc-700">
            journey.{key}.{p}
          </code>
        ))
      ) : (
        <code className="rounded bg-zinc-100 px-1 font-mono text-zinc-700">journey.{key}.&lt;property&gt;</code>
      )}
      {props.length > 12 && <span> and {props.length - 12} more</span>}
    </div>
  );
}

/** One entrance: an event (conditions, organization member rule) or a schedule offset, and its data key. */
export function EntranceEditor({
  index,
  schema,
  projectId,
  onRemove,
  canRemove,
}: {
  index: number;
  schema: Schema;
  projectId: string;
  onRemove: () => void;
  canRemove: boolean;
}) {
  const { control, setValue, getValues } = useFormContext();
  const at = `entrances.${index}`;
  const kind = useWatch({ control, name: `${at}.kind` }) as "event" | "scheduled";
  const eventName = useWatch({ control, name: `${at}.event_name` }) as string | undefined;
  const conditions = (useWatch({ control, name: `${at}.condition` }) as unknown[] | undefined) ?? [];
  const userRule = useWatch({ control, name: `${at}.user_rule` });
  const dataKey = (useWatch({ control, name: `${at}.data_key` }) as string | undefined) ?? "";
  const scheduleId = useWatch({ control, name: `${at}.schedule_id` }) as string | undefined;
  const schedules = useSchedules(projectId);
  const schedule = schedules.data?.data.find((s) => s.id === scheduleId);
  const eventProps = schema.propsOf(eventName);
  const exposed =
    kind === "scheduled"
      ? [
          ...new Set([
            ...SCHEDULED_FIELDS,
            ...(schedule ? schema.propsOf(`scheduled.${schedule.name}`).map((p) => p.path) : []),
          ]),
        ]
      : eventProps.map((p) => p.path);
  const label = `Entrance ${index + 1}`;
  return (
    <fieldset className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4" aria-label={label}>
      <legend className="flex items-center gap-2 px-1 text-sm font-medium text-zinc-800">
        {label}
        <Controller
          control={control}
          name={`${at}.kind`}
          render={({ field }) => (
            <select
              aria-label={`${label}: kind`}
              className={`${controlClass} py-1`}
              value={field.value}
              onChange={(e) => {
                const id = getValues(`${at}.id`);
                const key = getValues(`${at}.data_key`) || "event";
                setValue(
                  at,
                  e.target.value === "event"
                    ? { ...(id ? { id } : {}), kind: "event", event_name: "", data_key: key }
                    : {
                        ...(id ? { id } : {}),
                        kind: "scheduled",
                        schedule_id: "",
                        schedule_offset_id: "",
                        data_key: key,
                      },
                  { shouldDirty: true },
                );
              }}
            >
              <option value="event">An event happens</option>
              <option value="scheduled">A schedule offset fires</option>
            </select>
          )}
        />
        {canRemove && (
          <Button variant="ghost" size="sm" onClick={onRemove}>
            Remove entrance
          </Button>
        )}
      </legend>
      {kind === "event" ? (
        <>
          <div>
            <label className="text-sm text-zinc-600" htmlFor={`${at}-event`}>
              Event name
            </label>
            <Controller
              control={control}
              name={`${at}.event_name`}
              render={({ field }) => (
                <input
                  id={`${at}-event`}
                  {...field}
                  value={field.value ?? ""}
                  list="relay-event-names"
                  className={`${controlClass} ml-2 w-64`}
                  placeholder="Signed Up"
                />
              )}
            />
            <FieldError name={`${at}.event_name`} />
          </div>
          <div className="space-y-2">
            {conditions.map((_, i) => (
              <ConditionRow
                key={i}
                prefix={`${at}.condition.${i}`}
                props={eventProps}
                label={`${label} condition ${i + 1}`}
                onRemove={() => {
                  const next = (getValues(`${at}.condition`) as unknown[]).filter((__, j) => j !== i);
                  setValue(`${at}.condition`, next.length ? next : undefined, { shouldDirty: true });
                }}
              />
            ))}
            <Button
              variant="ghost"
              size="sm"
              onClick={() =>
                setValue(
                  `${at}.condition`,
                  [
                    ...((getValues(`${at}.condition`) as unknown[]) ?? []),
                    { path: eventProps[0]?.path ?? "", op: "eq", value: "" },
                  ],
                  { shouldDirty: true },
                )
              }
            >
              + Condition on the event's data
            </Button>
          </div>
          {userRule ? (
            <div>
              <p className="mb-1 text-sm text-zinc-600">For organization events, only members matching:</p>
              <RuleGroup
                path={`${at}.user_rule`}
                schema={schema}
                depth={1}
                onRemove={() => setValue(`${at}.user_rule`, undefined, { shouldDirty: true })}
              />
            </div>
          ) : (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setValue(`${at}.user_rule`, { all: [newPropertyRule()] }, { shouldDirty: true })}
            >
              + Member rule (organization events)
            </Button>
          )}
        </>
      ) : (
        <div className="flex flex-wrap items-start gap-3">
          <div>
            <Controller
              control={control}
              name={`${at}.schedule_id`}
              render={({ field }) => (
                <select
                  aria-label={`${label}: schedule`}
                  className={controlClass}
                  value={field.value ?? ""}
                  onChange={(e) => {
                    field.onChange(e.target.value);
                    setValue(`${at}.schedule_offset_id`, "");
                  }}
                >
                  <option value="">Choose a schedule…</option>
                  {schedules.data?.data.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name}
                    </option>
                  ))}
                </select>
              )}
            />
            <FieldError name={`${at}.schedule_id`} />
          </div>
          <div>
            <Controller
              control={control}
              name={`${at}.schedule_offset_id`}
              render={({ field }) => (
                <select
                  aria-label={`${label}: offset`}
                  className={controlClass}
                  value={field.value ?? ""}
                  onChange={(e) => field.onChange(e.target.value)}
                  disabled={!schedule}
                >
                  <option value="">{schedule ? "Choose an offset…" : "Pick a schedule first"}</option>
                  {schedule?.offsets.map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.offset} {o.direction}
                    </option>
                  ))}
                </select>
              )}
            />
            <FieldError name={`${at}.schedule_offset_id`} />
          </div>
          {schedule && <Badge tone="amber">scheduled.{schedule.name}</Badge>}
          {schedules.data && schedules.data.data.length === 0 && (
            <p className="text-sm text-zinc-500">No schedules yet: create one on the Schedules page.</p>
          )}
        </div>
      )}
      <div>
        <label className="text-sm text-zinc-600" htmlFor={`${at}-key`}>
          Data key
        </label>
        <Controller
          control={control}
          name={`${at}.data_key`}
          render={({ field }) => (
            <input
              id={`${at}-key`}
              {...field}
              value={field.value ?? ""}
              className={`${controlClass} ml-2 w-40 font-mono text-xs`}
              placeholder="event"
            />
          )}
        />
        <FieldError name={`${at}.data_key`} />
        <div className="mt-1">
          <ExposedPaths dataKey={dataKey} props={exposed} />
        </div>
      </div>
    </fieldset>
  );
}
