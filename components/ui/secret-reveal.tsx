"use client";
import { type ReactNode, useState } from "react";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/states";

/**
 * A secret shown this once (a new API key, a destination's signing secret): what to do with it, the
 * secret in a read-only field with a Copy button, and Done. Keyed by the caller on the secret, so
 * "Copied" never carries over to the next one.
 */
export function SecretReveal({
  label,
  value,
  onDone,
  children,
}: {
  label: string;
  value: string;
  onDone: () => void;
  children: ReactNode;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-4">
      <p className="text-sm text-zinc-600">{children}</p>
      <div className="flex items-center gap-2">
        <input
          readOnly
          aria-label={label}
          value={value}
          onFocus={(e) => e.target.select()}
          className={`${inputClass} font-mono text-xs`}
        />
        <Button
          variant="secondary"
          onClick={async () => {
            await navigator.clipboard?.writeText(value).catch(() => {});
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
      <div className="flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
