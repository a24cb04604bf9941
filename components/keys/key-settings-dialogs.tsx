"use client";
import { useMutation } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { DialogForm, Field } from "@/components/ui/dialog-form";
import { Dialog } from "@/components/ui/dialog";
import { inputClass } from "@/components/ui/states";
import type { ApiKey as Key } from "@/components/console/api-types";

type Target = { target: Key | null; onClose: () => void; onSaved: () => void };

export function LimitFields({
  rate,
  burst,
  setRate,
  setBurst,
}: {
  rate: number;
  burst: number;
  setRate: (n: number) => void;
  setBurst: (n: number) => void;
}) {
  return (
    <fieldset>
      <legend className="block text-sm font-medium text-zinc-700">Rate limit</legend>
      <div className="mt-1 grid grid-cols-2 gap-3">
        <label className="text-xs text-zinc-500">
          Requests per second
          <input
            type="number"
            min={1}
            max={10000}
            required
            value={rate}
            onChange={(e) => setRate(e.target.valueAsNumber)}
            className={`${inputClass} mt-1`}
          />
        </label>
        <label className="text-xs text-zinc-500">
          Burst
          <input
            type="number"
            min={1}
            max={100000}
            required
            value={burst}
            onChange={(e) => setBurst(e.target.valueAsNumber)}
            className={`${inputClass} mt-1`}
          />
        </label>
      </div>
      <p className="mt-1 text-xs text-zinc-500">
        Up to the burst at once, then the sustained rate. Past it, requests get 429 with Retry-After.
      </p>
    </fieldset>
  );
}

/** One origin per line (or comma-separated); null when empty, which means a server key. */
export function originList(text: string): string[] | null {
  const list = text.split(/[\s,]+/).filter(Boolean);
  return list.length ? list : null;
}

export function OriginsField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <Field id="key-origins" label="Allowed browser origins">
      <textarea
        id="key-origins"
        rows={3}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="https://shop.example.com"
        className={`${inputClass} mt-1 font-mono text-xs`}
      />
      <p className="mt-1 text-xs text-zinc-500">
        One per line, at most 20. Empty: a server key, refused from any web page. With origins it is a browser key for
        the browser SDK: anyone who loads your page can read it, so it may only upsert users and send their events, and
        it reads nothing back.
      </p>
    </Field>
  );
}

/** A dialog that PATCHes one key with what `body()` builds from its fields; closes on success. */
function KeyPatchDialog({
  target,
  onClose,
  onSaved,
  title,
  saveLabel,
  body,
  onReset,
  children,
}: Target & {
  title: string;
  saveLabel: string;
  body: () => Record<string, unknown>;
  onReset: () => void;
  children: ReactNode;
}) {
  const project = useProject();
  const save = useMutation({
    mutationFn: () => apiFetch<Key>(adminPath(project.id, `/keys/${target!.id}`), { method: "PATCH", body: body() }),
    onSuccess: () => {
      onSaved();
      close();
    },
  });
  const close = () => {
    save.reset();
    onReset();
    onClose();
  };
  return (
    <Dialog open={target !== null} onClose={close} title={title}>
      <DialogForm mutation={save} onCancel={close} labels={[saveLabel, "Saving…"]}>
        {children}
      </DialogForm>
    </Dialog>
  );
}

export function LimitsDialog(props: Target) {
  const { target } = props;
  const [rate, setRate] = useState(0);
  const [burst, setBurst] = useState(0);
  const [shown, setShown] = useState<string | null>(null);
  if (target && shown !== target.id) {
    setShown(target.id);
    setRate(target.rate_limit_per_second);
    setBurst(target.rate_limit_burst);
  }
  return (
    <KeyPatchDialog
      {...props}
      title={`Rate limit of ${target?.name ?? ""}`}
      saveLabel="Save limit"
      onReset={() => setShown(null)}
      body={() => ({ rate_limit_per_second: rate, rate_limit_burst: burst })}
    >
      <LimitFields rate={rate} burst={burst} setRate={setRate} setBurst={setBurst} />
    </KeyPatchDialog>
  );
}

export function OriginsDialog(props: Target) {
  const { target } = props;
  const [origins, setOrigins] = useState("");
  const [shown, setShown] = useState<string | null>(null);
  if (target && shown !== target.id) {
    setShown(target.id);
    setOrigins((target.allowed_origins ?? []).join("\n"));
  }
  return (
    <KeyPatchDialog
      {...props}
      title={`Browser origins of ${target?.name ?? ""}`}
      saveLabel="Save origins"
      onReset={() => setShown(null)}
      body={() => ({ allowed_origins: originList(origins) })}
    >
      <OriginsField value={origins} onChange={setOrigins} />
    </KeyPatchDialog>
  );
}
