import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { processSingleton } from "@/lib/process/singleton";

/**
 * Every Prometheus metric of the web and the worker, in one registry (documented in docs/operations.md,
 * "Metrics"). Gauges that describe the whole system (backlog, due firings) are read from the
 * database at scrape time by `collectSystemGauges`, so any process answers them alike.
 */
function create() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "relay_" });
  const r = [registry];
  const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
  return {
    registry,
    httpRequests: new Counter({
      name: "relay_http_requests_total",
      help: "HTTP requests answered, by route pattern, method and status",
      labelNames: ["route", "method", "status"],
      registers: r,
    }),
    httpDuration: new Histogram({
      name: "relay_http_request_duration_seconds",
      help: "HTTP request latency, by route pattern, method and status",
      labelNames: ["route", "method", "status"],
      buckets: seconds,
      registers: r,
    }),
    eventsAccepted: new Counter({
      name: "relay_events_accepted_total",
      help: "Events accepted (202) into the intake",
      registers: r,
    }),
    intakeBacklog: new Gauge({
      name: "relay_intake_backlog",
      help: "Accepted events not yet recorded (excluding set-aside rows)",
      registers: r,
    }),
    intakeOldest: new Gauge({
      name: "relay_intake_oldest_seconds",
      help: "Age of the oldest unprocessed accepted event",
      registers: r,
    }),
    intakeFailed: new Gauge({
      name: "relay_intake_set_aside",
      help: "Intake rows set aside after failing on their own",
      registers: r,
    }),
    stepDuration: new Histogram({
      name: "relay_pipeline_step_duration_seconds",
      help: "Duration of one pipeline step batch (intake drain or one job queue)",
      labelNames: ["step"],
      buckets: seconds,
      registers: r,
    }),
    stepFailures: new Counter({
      name: "relay_pipeline_step_failures_total",
      help: "Pipeline step batches that failed (they are retried)",
      labelNames: ["step"],
      registers: r,
    }),
    fanoutsOpen: new Gauge({ name: "relay_fanouts_open", help: "Match fan-outs still running", registers: r }),
    fanoutsOpenDelivered: new Gauge({
      name: "relay_fanouts_open_delivered",
      help: "Records reached so far by the fan-outs still running",
      registers: r,
    }),
    firingsDue: new Gauge({
      name: "relay_schedule_firings_due",
      help: "Schedule firings due now and not yet fired",
      registers: r,
    }),
    firings: new Counter({
      name: "relay_schedule_firings_total",
      help: "Schedule firings handled by this process, by outcome (fired, skipped, failed)",
      labelNames: ["outcome"],
      registers: r,
    }),
    firingLag: new Histogram({
      name: "relay_schedule_firing_lag_seconds",
      help: "How late a firing fired after its fire_at",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600],
      registers: r,
    }),
    mail: new Counter({
      name: "relay_mail_total",
      help: "Mail by outcome: queued (handed to the sender), sent, failed",
      labelNames: ["outcome"],
      registers: r,
    }),
    feedbackReports: new Counter({
      name: "relay_feedback_reports_total",
      help: "Reports about sent messages (DSNs, complaints, provider webhooks), by source and outcome: recorded, duplicate, unknown_message and not_a_report (dropped)",
      labelNames: ["source", "outcome"],
      registers: r,
    }),
    inboundMail: new Counter({
      name: "relay_inbound_mail_total",
      help: "Mails accepted by the inbound SMTP listener (bounces and complaints, before they are read)",
      registers: r,
    }),
    bossQueue: new Gauge({
      name: "relay_pgboss_queue_jobs",
      help: "pg-boss jobs per queue and state (queued, active, deferred, failed)",
      labelNames: ["queue", "state"],
      registers: r,
    }),
    dbConnections: new Gauge({
      name: "relay_db_pool_connections",
      help: "This process's open database connections, by state (active, idle, ...)",
      labelNames: ["state"],
      registers: r,
    }),
    dbPoolMax: new Gauge({ name: "relay_db_pool_max", help: "This process's database pool size", registers: r }),
    heartbeatAge: new Gauge({
      name: "relay_worker_heartbeat_age_seconds",
      help: "Seconds since the freshest worker heartbeat",
      registers: r,
    }),
  };
}

export type Metrics = ReturnType<typeof create>;
// prom-client's registry must be one per process.
export const metrics: Metrics = processSingleton("metrics", create);
