/*
 * The messaging API's answers as the console reads them. Replaced by z.output of lib/messages' schemas
 * once they exist (components/README.md: data shapes come from the API's own schemas).
 */
export type Channel = "email" | "sms";
export type MessageState = "queued" | "sent" | "skipped" | "failed";
export type BroadcastState = "scheduled" | "sending" | "done" | "cancelled";

export interface Provider {
  id: string;
  channel: Channel;
  kind: "smtp" | "twilio";
  name: string;
  url?: string | null;
  from: string;
  account_sid?: string | null;
  api_base?: string | null;
  rate_per_second?: number | null;
  created_at: string;
}

export interface TemplateContent {
  subject?: string | null;
  text?: string | null;
  html?: string | null;
}

export interface Template extends TemplateContent {
  id: string;
  name: string;
  channel: Channel;
  subscription_group: { id: string; name: string } | null;
  transactional: boolean;
  locales: Record<string, TemplateContent>;
  created_at: string;
  updated_at: string;
}

export interface Rendered {
  locale?: string | null;
  subject: string | null;
  text: string | null;
  html: string | null;
}

export interface Message {
  id: string;
  channel: Channel;
  template: { id: string; name: string };
  user_id: string;
  recipient: string | null;
  state: MessageState;
  reason: string | null;
  attempts: number;
  provider_message_id: string | null;
  subject: string | null;
  locale: string | null;
  cause: {
    journey_id: string | null;
    journey_entry_id: string | null;
    journey_step_key: string | null;
    broadcast_id: string | null;
  };
  next_attempt_at: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface MessageDetail extends Message {
  content: (Rendered & { locale: string | null }) | null;
}

export interface Broadcast {
  id: string;
  name: string;
  template_id: string;
  list_id: string;
  send_at: string;
  in_user_timezone: boolean;
  rate_per_second: number | null;
  state: BroadcastState;
  started_at: string | null;
  finished_at: string | null;
  counts: { recipients: number | null; queued: number; sent: number; skipped: number; failed: number };
  created_at: string;
}
