"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { ChannelSelect } from "@/components/messages/channel-select";
import { Dialog } from "@/components/ui/dialog";
import { DialogForm, Field } from "@/components/ui/dialog-form";
import { inputClass } from "@/components/ui/states";

/** Addresses pasted one a line (or separated by commas), added with reason `manual`. */
export function AddSuppressionsDialog({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: (r: { added: number; already: number }) => void;
}) {
  const project = useProject();
  const [channel, setChannel] = useState<"email" | "sms">("email");
  const [text, setText] = useState("");
  const addresses = text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);
  const add = useMutation({
    mutationFn: () =>
      apiFetch<{ added: number; already: number }>(adminPath(project.id, "/suppressions"), {
        method: "POST",
        body: { channel, addresses },
      }),
    onSuccess: (r) => {
      setText("");
      onAdded(r);
    },
  });
  return (
    <Dialog open={open} onClose={onClose} title="Suppress addresses">
      <DialogForm
        mutation={add}
        onCancel={onClose}
        labels={[`Suppress ${addresses.length || ""}`.trim(), "Adding…"]}
        disabled={addresses.length === 0}
      >
        <ChannelSelect
          id="suppress-channel"
          className={inputClass}
          value={channel}
          onChange={(e) => setChannel(e.target.value as "email" | "sms")}
        />
        <Field id="suppress-addresses" label="Addresses (one a line, up to 10,000)">
          <textarea
            id="suppress-addresses"
            className={`${inputClass} h-32 font-mono text-xs`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={channel === "email" ? "someone@example.com" : "+15551234567"}
          />
        </Field>
      </DialogForm>
    </Dialog>
  );
}
