"use client";
import { Dialog } from "@/components/ui/dialog";
import { SecretReveal } from "@/components/ui/secret-reveal";

/** A destination's signing secret, shown once: on creation and after a rotation. */
export function SecretDialog({
  secret,
  onClose,
}: {
  secret: { title: string; value: string } | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={secret !== null} onClose={onClose} title={secret?.title ?? ""}>
      {secret && (
        <SecretReveal key={secret.value} label="Signing secret" value={secret.value} onDone={onClose}>
          This is the only time the secret is shown. Give it to your receiver to verify each message&apos;s{" "}
          <code className="font-mono text-xs">webhook-signature</code>.
        </SecretReveal>
      )}
    </Dialog>
  );
}
