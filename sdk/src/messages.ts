import {
  AdminClient,
  type AdminOptions,
  type Body,
  type Defaulted,
  type Json,
  type Page,
  type Query,
  query,
  seg,
} from "./admin.js";
import type { paths } from "./generated/api.js";

type P = "/api/admin/projects/{projectID}";
type Providers = paths[`${P}/providers`];
type Provider_ = paths[`${P}/providers/{id}`];
type Templates = paths[`${P}/templates`];
type Template_ = paths[`${P}/templates/{id}`];
type Broadcasts = paths[`${P}/broadcasts`];
type Broadcast_ = paths[`${P}/broadcasts/{id}`];
type Messages = paths[`${P}/messages`];

/** A provider as answered: never its password or auth token (an SMTP URL comes with the password masked). */
export type Provider = Json<Provider_["get"]["responses"][200]>;
export type ProviderList = Json<Providers["get"]["responses"][200]>;
export type ProviderInput = Body<Providers["post"]>;
export type ProviderChange = Body<Provider_["patch"]>;
export type Template = Json<Template_["get"]["responses"][200]>;
/** `subject`, `text`, `html`, `transactional` and `locales` have defaults (empty, false, none). */
export type TemplateInput = Defaulted<
  Body<Templates["post"]>,
  "subject" | "text" | "html" | "transactional" | "locales"
>;
export type TemplateChange = Defaulted<Body<Template_["patch"]>, "locales">;
export type TemplatePreviewInput = Body<paths[`${P}/templates/{id}/preview`]["post"]>;
export type TemplatePreview = Json<paths[`${P}/templates/{id}/preview`]["post"]["responses"][200]>;
export type TemplateTestInput = Body<paths[`${P}/templates/{id}/test`]["post"]>;
export type TemplateTestResult = Json<paths[`${P}/templates/{id}/test`]["post"]["responses"][200]>;
export type Broadcast = Json<Broadcast_["get"]["responses"][200]>;
/** `send_at` defaults to now, `in_user_timezone` to false, `rate_per_second` to the provider's pace (null). */
export type BroadcastInput = Defaulted<Body<Broadcasts["post"]>, "in_user_timezone" | "rate_per_second">;
export type BroadcastChange = Body<Broadcast_["patch"]>;
export type Message = Json<Messages["get"]["responses"][200]>["data"][number];
export type MessageDetail = Json<paths[`${P}/messages/{id}`]["get"]["responses"][200]>;

/**
 * The messages admin API: providers (role `admin` to write), Liquid templates with preview and test
 * sends, broadcasts of a template to a list, and the messages log. Shapes are the API's own snake_case
 * ones; template `context` and Liquid pass through untouched.
 *
 * ```ts
 * const relay = new RelayMessages({ apiKey, baseUrl, projectId });
 * const t = await relay.templates.create({ name: "Welcome", channel: "email", transactional: true, subject: "Hi {{ user.email }}" });
 * const b = await relay.broadcasts.create({ name: "Launch", template_id: t.id, list_id });
 * ```
 */
export class RelayMessages extends AdminClient {
  readonly providers;
  readonly templates;
  readonly broadcasts;
  readonly messages;

  constructor(opts: AdminOptions) {
    super(opts);
    const call = this.call.bind(this);
    this.providers = {
      /** At most one per channel; `deployment_email`: the deployment's SMTP_URL sends e-mail without one. */
      list: () => call<ProviderList>("GET", "/providers"),
      /** SMTP (`smtp://user:pass@host:587`) for e-mail, Twilio-compatible for SMS; 409 for a second of a channel. */
      create: (input: ProviderInput) => call<Provider>("POST", "/providers", input),
      get: (id: string) => call<Provider>("GET", `/providers${seg(id)}`),
      update: (id: string, change: ProviderChange) => call<Provider>("PATCH", `/providers${seg(id)}`, change),
      delete: (id: string) => call<void>("DELETE", `/providers${seg(id)}`),
    };
    this.templates = {
      list: (q: Query<Templates["get"]> = {}) => call<Page<Template>>("GET", `/templates${query(q)}`),
      /** Compiled on save: a part that does not compile is a `RelayValidationError` naming it. */
      create: (input: TemplateInput) => call<Template>("POST", "/templates", input),
      get: (id: string) => call<Template>("GET", `/templates${seg(id)}`),
      update: (id: string, change: TemplateChange) => call<Template>("PATCH", `/templates${seg(id)}`, change),
      /** Deletes its messages' log too; refused (422) while a broadcast uses it. */
      delete: (id: string) => call<void>("DELETE", `/templates${seg(id)}`),
      /** Renders it as the user's message would be; nothing is sent. */
      preview: (id: string, input: TemplatePreviewInput) =>
        call<TemplatePreview>("POST", `/templates${seg(id)}/preview`, input),
      /** Sends one rendering to `to` now (subject prefixed `[test]`); not logged, not retried. */
      test: (id: string, input: TemplateTestInput) =>
        call<TemplateTestResult>("POST", `/templates${seg(id)}/test`, input),
    };
    this.broadcasts = {
      list: (q: Query<Broadcasts["get"]> = {}) => call<Page<Broadcast>>("GET", `/broadcasts${query(q)}`),
      /** At `send_at` (default now) each member of the list gets one message; `done` when all are final. */
      create: (input: BroadcastInput) => call<Broadcast>("POST", "/broadcasts", input),
      get: (id: string) => call<Broadcast>("GET", `/broadcasts${seg(id)}`),
      /** Only while `scheduled`. */
      update: (id: string, change: BroadcastChange) => call<Broadcast>("PATCH", `/broadcasts${seg(id)}`, change),
      /** Not while sending (cancel first); its messages stay in the log. */
      delete: (id: string) => call<void>("DELETE", `/broadcasts${seg(id)}`),
      /** Messages not yet handed to a provider are skipped as `cancelled`. */
      cancel: (id: string) => call<Broadcast>("POST", `/broadcasts${seg(id)}/cancel`),
    };
    this.messages = {
      /** Newest first; filter by user, template, journey, broadcast and state. */
      list: (q: Query<Messages["get"]> = {}) => call<Page<Message>>("GET", `/messages${query(q)}`),
      /** One message with its content rendered now from its template. */
      get: (id: string) => call<MessageDetail>("GET", `/messages${seg(id)}`),
    };
  }
}
