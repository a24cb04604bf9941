"use client";
import { useState } from "react";
import { controlClass } from "@/components/ui/states";

const UNITS = ["seconds", "minutes", "hours", "days", "weeks"] as const;
const SHAPE = /^\s*(\d+)\s*(second|minute|hour|day|week)s?\s*$/i;

/** `"3 days"` → amount and unit; null for what the two fields cannot show (`1 day 2 hours`, `P1D`). */
export function splitDuration(v: string): { amount: number; unit: (typeof UNITS)[number] } | null {
  const m = SHAPE.exec(v);
  return m ? { amount: Number(m[1]), unit: `${m[2]!.toLowerCase()}s` as (typeof UNITS)[number] } : null;
}

/**
 * A duration in the schedule interval syntax the API takes (`30 minutes`): a number and a unit, or the
 * text itself for anything else PostgreSQL reads as an interval (`1 day 2 hours`).
 */
export function DurationInput({
  value,
  onChange,
  label,
}: {
  value: string;
  onChange: (v: string) => void;
  label: string;
}) {
  const parts = splitDuration(value);
  const [free, setFree] = useState(!parts && value !== "");
  if (free || !parts)
    return (
      <span className="flex items-center gap-2">
        <input
          aria-label={label}
          value={value}
          maxLength={64}
          onChange={(e) => onChange(e.target.value)}
          placeholder="1 day 2 hours"
          className={`${controlClass} w-40`}
        />
        <button
          type="button"
          className="text-xs text-indigo-700 hover:underline"
          onClick={() => {
            setFree(false);
            if (!splitDuration(value)) onChange("1 days");
          }}
        >
          simple
        </button>
      </span>
    );
  return (
    <span className="flex items-center gap-2">
      <input
        type="number"
        min={1}
        aria-label={`${label}: amount`}
        value={parts.amount}
        onChange={(e) => onChange(`${Math.max(1, Number(e.target.value) || 1)} ${parts.unit}`)}
        className={`${controlClass} w-20`}
      />
      <select
        aria-label={`${label}: unit`}
        value={parts.unit}
        onChange={(e) => onChange(`${parts.amount} ${e.target.value}`)}
        className={controlClass}
      >
        {UNITS.map((u) => (
          <option key={u} value={u}>
            {u}
          </option>
        ))}
      </select>
      <button type="button" className="text-xs text-indigo-700 hover:underline" onClick={() => setFree(true)}>
        custom
      </button>
    </span>
  );
}
