"use client";
import { useFormContext } from "react-hook-form";
import { inputClass } from "@/components/ui/states";
import { FieldError } from "./field-error";

/** The `name` of the record a form (under FormProvider) edits: labelled, with the zod message under it. */
export function RecordNameField({ id, placeholder }: { id: string; placeholder: string }) {
  const { register } = useFormContext();
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium text-zinc-800">
        Name
      </label>
      <input id={id} {...register("name")} className={`${inputClass} mt-1`} placeholder={placeholder} />
      <FieldError name="name" />
    </div>
  );
}
