"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { Dialog } from "@/components/ui/dialog";
import { DialogForm, NameField, TextField } from "@/components/ui/dialog-form";
import type { Provider } from "@/components/messages/types";

type Kind = "smtp" | "twilio";
const EMPTY = { name: "", url: "", from: "", account_sid: "", auth_token: "", api_base: "", rate: "" };

/**
 * Adds an SMTP (e-mail) or Twilio (SMS) provider. Its secrets (the URL's password, the auth token) go to
 * the server once and are never shown again: the form clears on success and the list shows them masked.
 */
export function CreateProviderDialog({
  taken,
  open,
  onClose,
  onCreated,
}: {
  /** The channels that have their provider already (one per channel). */
  taken: Provider["channel"][];
  open: boolean;
  onClose: () => void;
  onCreated: (p: Provider) => void;
}) {
  const project = useProject();
  const [chosen, setKind] = useState<Kind>("smtp");
  const kind: Kind = taken.includes("email") ? "twilio" : taken.includes("sms") ? "smtp" : chosen;
  const [v, setV] = useState(EMPTY);
  const set = (k: keyof typeof EMPTY) => (value: string) => setV((old) => ({ ...old, [k]: value }));
  const create = useMutation({
    mutationFn: () => {
      const rate = v.rate.trim() ? { rate_per_second: Number(v.rate) } : {};
      const body =
        kind === "smtp"
          ? { channel: "email", kind, name: v.name, url: v.url, from: v.from, ...rate }
          : {
              channel: "sms",
              kind,
              name: v.name,
              account_sid: v.account_sid,
              auth_token: v.auth_token,
              from: v.from,
              ...(v.api_base.trim() ? { api_base: v.api_base.trim() } : {}),
              ...rate,
            };
      return apiFetch<Provider>(adminPath(project.id, "/providers"), { method: "POST", body });
    },
    onSuccess: (p) => {
      setV(EMPTY);
      onCreated(p);
    },
  });
  const close = () => {
    create.reset();
    setV(EMPTY);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title="Add provider">
      <DialogForm
        mutation={create}
        onCancel={close}
        labels={["Add provider", "Adding…"]}
        disabled={
          !v.name.trim() || !v.from.trim() || (kind === "smtp" ? !v.url.trim() : !v.account_sid || !v.auth_token)
        }
      >
        <fieldset>
          <legend className="text-sm font-medium text-zinc-700">Kind</legend>
          <div className="mt-1 flex gap-4 text-sm text-zinc-800">
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="provider-kind"
                checked={kind === "smtp"}
                disabled={taken.includes("email")}
                onChange={() => setKind("smtp")}
              />
              E-mail (SMTP)
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="provider-kind" checked={kind === "twilio"} onChange={() => setKind("twilio")} />
              SMS (Twilio)
            </label>
          </div>
          {taken.length > 0 && (
            <p className="mt-1 text-xs text-zinc-500">
              One provider per channel: remove the current one to replace it.
            </p>
          )}
        </fieldset>
        <NameField id="provider-name" value={v.name} onChange={set("name")} placeholder="Postmark" />
        {kind === "smtp" ? (
          <>
            <TextField
              id="provider-url"
              label="SMTP URL"
              required
              mono
              maxLength={2048}
              autoComplete="off"
              value={v.url}
              onChange={set("url")}
              placeholder="smtp://user:password@smtp.example.com:587"
              hint="smtps:// for TLS from the first byte. The password is stored encrypted and never shown again."
            />
            <TextField
              id="provider-from"
              label="From"
              required
              maxLength={320}
              value={v.from}
              onChange={set("from")}
              placeholder="Acme <hello@acme.com>"
            />
          </>
        ) : (
          <>
            <TextField
              id="provider-sid"
              label="Account SID"
              required
              mono
              maxLength={64}
              value={v.account_sid}
              onChange={set("account_sid")}
              placeholder="AC…"
            />
            <TextField
              id="provider-token"
              label="Auth token"
              type="password"
              required
              autoComplete="off"
              maxLength={128}
              value={v.auth_token}
              onChange={set("auth_token")}
              hint="Stored encrypted and never shown again."
            />
            <TextField
              id="provider-from"
              label="From"
              required
              maxLength={64}
              value={v.from}
              onChange={set("from")}
              placeholder="+14155550100"
            />
            <TextField
              id="provider-api-base"
              label="API base (optional)"
              mono
              maxLength={2048}
              value={v.api_base}
              onChange={set("api_base")}
              placeholder="https://api.twilio.com"
            />
          </>
        )}
        <TextField
          id="provider-rate"
          label="Messages per second (optional)"
          type="number"
          min={1}
          value={v.rate}
          onChange={set("rate")}
          hint="Relay never sends faster through this provider."
        />
      </DialogForm>
    </Dialog>
  );
}
