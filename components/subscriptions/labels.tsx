/** How subscription states, sources and policies read in the console. */
import { Badge } from "@/components/ui/states";

export function StateBadge({ state }: { state: string | null }) {
  return (
    <Badge tone={state === "subscribed" ? "green" : state === "unsubscribed" ? "red" : "zinc"}>
      {state ?? "unset"}
    </Badge>
  );
}

export const SOURCE_LABELS: Record<string, string> = {
  client_api: "Client API",
  admin_api: "Admin API",
  console: "Console",
  one_click: "One-click unsubscribe",
  unsubscribe_page: "Unsubscribe page",
  preference_center: "Preference center",
  sms: "SMS keyword",
};

export const POLICY_LABELS = { opt_out: "Subscribed by default", opt_in: "Explicit opt-in" } as const;
