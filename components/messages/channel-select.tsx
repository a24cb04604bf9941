"use client";
import type { ComponentProps } from "react";
import { Field } from "@/components/ui/dialog-form";

/** A labelled choice of e-mail or SMS; the rest of the props go to the `select` (a `register` too). */
export function ChannelSelect({ id, ...select }: ComponentProps<"select"> & { id: string }) {
  return (
    <Field id={id} label="Channel">
      <select id={id} {...select}>
        <option value="email">E-mail</option>
        <option value="sms">SMS</option>
      </select>
    </Field>
  );
}
