"use client";
import type { InputHTMLAttributes, ReactNode } from "react";
import { Button } from "./button";
import { ErrorBanner, inputClass } from "./states";

/** What a dialog's form submits: a react-query mutation without variables. */
export interface FormMutation {
  mutate: () => void;
  error: Error | null;
  isPending: boolean;
}

/**
 * A dialog's form: its fields, then the mutation's refusal, then Cancel and the submit button, which
 * runs the mutation. `labels` is what that button says, and (when given) what it says while the request
 * is out.
 */
export function DialogForm({
  mutation,
  onCancel,
  labels: [submitLabel, pendingLabel],
  disabled = false,
  children,
}: {
  mutation: FormMutation;
  onCancel: () => void;
  labels: [submit: string, pending?: string];
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        mutation.mutate();
      }}
    >
      {children}
      {mutation.error && <ErrorBanner message={mutation.error.message} />}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={mutation.isPending || disabled}>
          {mutation.isPending && pendingLabel ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** A labelled form field: the label above whatever control `children` is (its id is `id`). */
export function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-zinc-700">
        {label}
      </label>
      {children}
    </div>
  );
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange" | "className"> & {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** A line under the control: what the field accepts. */
  hint?: ReactNode;
  /** Monospaced, for URLs and JSON. */
  mono?: boolean;
};

/** A labelled one-line text input: the console's forms look and label their text fields alike. */
export function TextField({ id, label, value, onChange, hint, mono, ...input }: TextFieldProps) {
  return (
    <Field id={id} label={label}>
      <input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={`${inputClass} mt-1${mono ? " font-mono text-xs" : ""}`}
        {...input}
      />
      {hint && <p className="mt-1 text-xs text-zinc-500">{hint}</p>}
    </Field>
  );
}

/** The name a dialog creates a record under: required, at most 100 characters (as the API allows), focused first. */
export function NameField({ label = "Name", ...props }: Omit<TextFieldProps, "label"> & { label?: string }) {
  return <TextField label={label} required maxLength={100} autoFocus {...props} />;
}
