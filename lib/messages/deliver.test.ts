import { describe, expect, it } from "vitest";
import type { AppContext } from "@/lib/access/context";
import { deliver } from "./deliver";
import type { SendFacts } from "./send-facts";

process.env.RELAY_SIGNING_SECRET ??= "deliver-test-secret";

const facts = (text: string): SendFacts => ({
  project_id: crypto.randomUUID(),
  id: crypto.randomUUID(),
  user_id: crypto.randomUUID(),
  channel: "sms",
  template_id: crypto.randomUUID(),
  broadcast_id: null,
  journey_entry_id: null,
  journey_step_key: null,
  journey_data: null,
  email: null,
  phone: "+4915112345678",
  locale: null,
  timezone: null,
  user_data: {},
  identifiers: [],
  organization: null,
  template_updated_at: `v-${crypto.randomUUID()}`,
  subject: "",
  text,
  html: "",
  locales: {},
  transactional: true,
  group_id: null,
  project_name: "Acme",
  frequency_cap: null,
  quiet_hours: null,
  broadcast_rate: null,
  attempts: 0,
  opted_out: false,
  suppressed: false,
  recent: 0,
  cap_reserved: false,
  broadcast_state: null,
  policy: "opt_out",
  sub_state: null,
  template_version_id: null,
  built_locales: null,
  snippet_versions: null,
});

describe("deliver", () => {
  it("fails an SMS whose rendered body is longer than 1,600 characters with the reason, before any provider", async () => {
    // No database: the check comes before anything is read or sent.
    const ctx = { db: null } as unknown as AppContext;
    const d = await deliver(ctx, {
      facts: facts("x".repeat(1601)),
      origin: "https://r.example",
    });
    expect(d).toMatchObject({
      kind: "final",
      state: "failed",
      reason: "sms body of 1601 characters is longer than 1600",
    });
  });
});
