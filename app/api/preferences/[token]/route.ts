import type { SubscriptionState } from "@/db/schema";
import { AppError } from "@/lib/http/errors";
import { publicRoute } from "@/lib/http/public-route";
import { readForm } from "@/lib/http/read-form";
import { savePreferences } from "@/lib/subscriptions/save-preferences";
import { preferencesPath } from "@/lib/subscriptions/tokens";
import { log } from "@/lib/observability/logger";

type Params = { token: string };

const isState = (v: string | null): v is SubscriptionState => v === "subscribed" || v === "unsubscribed";

/**
 * The preference center's form (works without JavaScript): `group:<id>=subscribed|unsubscribed` per
 * group, or `all=unsubscribed` from the "unsubscribe from everything" button. Answers with a redirect
 * back to the page, which shows what happened.
 */
export const POST = publicRoute<Params>(async (req, { db, params }) => {
  const { token } = params;
  const back = (query: string) =>
    new Response(null, {
      status: 303,
      headers: { location: `${preferencesPath(token)}?${query}`, "cache-control": "no-store" },
    });
  try {
    const form = await readForm(req);
    const choices = new Map<string, SubscriptionState>();
    for (const [k, v] of form) if (k.startsWith("group:") && isState(v)) choices.set(k.slice(6), v);
    const all = form.get("all");
    const changed = await savePreferences({ db }, { token, choices, all: isState(all) ? all : undefined });
    return back(`saved=${changed}${isState(all) ? `&all=${all}` : ""}`);
  } catch (err) {
    if (!(err instanceof AppError)) log.error({ err }, "preferences save failed");
    return back("error=1");
  }
});
