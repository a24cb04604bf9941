import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { log } from "../lib/observability/logger";
import { FAST_FAILOVER_SETTINGS, pgAutoctlInstalled, startFormation } from "./ha-formation";
import { startDevServers } from "./dev-servers";

/**
 * `npm run ha:dev`: Relay on a pg_auto_failover formation on this machine (a monitor, a primary and a
 * synchronous standby on loopback ports HA_BASE_PORT..+2, default 6100), through the multi-host URL an
 * operator would use. Try a failover from another terminal (the printed commands). Ctrl-C stops the worker,
 * Next, then every node, and removes the formation's data.
 */
process.env.RELAY_PROCESS ??= "dev";
if (!pgAutoctlInstalled()) {
  log.fatal("pg_autoctl is missing: apt-get install pg-auto-failover-cli postgresql-15-auto-failover");
  process.exit(1);
}
const basePort = Number(process.env.HA_BASE_PORT ?? 6100);
const prefix = path.join(tmpdir(), "relay-ha-");
const dir = mkdtempSync(prefix);
log.info(`starting a pg_auto_failover formation in ${dir} (about a minute)`);
// A formation an earlier `ha:dev` left running (killed without its Ctrl-C clean-up) is stopped and removed first.
const formation = await startFormation({
  dir,
  basePort,
  monitorSettings: FAST_FAILOVER_SETTINGS,
  stalePrefix: prefix,
});
const env = `XDG_CONFIG_HOME=${dir}/config XDG_DATA_HOME=${dir}/share`;
log.info(`formation ready: DATABASE_URL=${formation.url}`);
log.info(`state:      runuser -u postgres -- env ${env} pg_autoctl show state --monitor '${formation.monitorUri}'`);
log.info(
  `switchover: runuser -u postgres -- env ${env} pg_autoctl perform switchover --monitor '${formation.monitorUri}'`,
);
await startDevServers(formation.url, () => formation.stop());
