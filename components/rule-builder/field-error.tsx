"use client";
import { get, useFormContext } from "react-hook-form";

/** The zod message for one form path (the same message the API would answer with). */
export function FieldError({ name }: { name: string }) {
  const { formState } = useFormContext();
  const err = get(formState.errors, name) as { message?: string } | undefined;
  if (!err?.message) return null;
  return <p className="mt-1 text-xs text-red-600">{err.message}</p>;
}
