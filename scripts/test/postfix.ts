import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/*
 * A private Postfix (Debian's package) for tests and benches: its own config, queue and data directories
 * under a temporary folder, smtpd on a loopback port, never the system's mail system. Postfix only runs
 * a config directory that the default /etc/postfix/main.cf lists in alternate_config_directories, so the
 * directory is added there while the instance runs and taken out when it stops.
 *
 * By default every message is queued and then discarded (`default_transport = discard`), as a relay that
 * accepts mail does; `relayTo` hands each message on to another SMTP server on 127.0.0.1 instead (a test's
 * sink), so the test reads what Postfix passed on, envelope included.
 */

const POSTFIX = "/usr/sbin/postfix";
const DEFAULT_MAIN = "/etc/postfix/main.cf";

export interface PrivatePostfix {
  port: number;
  dir: string;
  /** The instance's log: `from=<…>` lines name each message's envelope sender. */
  log: () => string;
  stop: () => Promise<void>;
}

export function postfixInstalled(): boolean {
  return existsSync(POSTFIX);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Adds or removes `dir` in the default main.cf's alternate_config_directories (written atomically). */
function listConfigDirectory(dir: string, listed: boolean): void {
  const text = existsSync(DEFAULT_MAIN) ? readFileSync(DEFAULT_MAIN, "utf8") : "";
  const lines = text.split("\n").filter((l) => l !== "");
  const i = lines.findIndex((l) => /^alternate_config_directories\s*=/.test(l));
  const current =
    i < 0
      ? []
      : lines[i]!.replace(/^[^=]*=/, "")
          .split(/[\s,]+/)
          .filter(Boolean);
  const next = listed ? [...new Set([...current, dir])] : current.filter((d) => d !== dir);
  const line = `alternate_config_directories = ${next.join(" ")}`;
  if (i < 0) lines.push(line);
  else lines[i] = line;
  const tmp = `${DEFAULT_MAIN}.${process.pid}.tmp`;
  mkdirSync(path.dirname(DEFAULT_MAIN), { recursive: true });
  writeFileSync(tmp, `${lines.join("\n")}\n`);
  renameSync(tmp, DEFAULT_MAIN);
}

function mainCf(dir: string, opts: PostfixOptions): string {
  const { relayTo, transports = {}, extra = [] } = opts;
  const routes = Object.entries(transports);
  if (routes.length)
    writeFileSync(`${dir}/transport`, routes.map(([domain, port]) => `${domain} smtp:[127.0.0.1]:${port}\n`).join(""));
  return [
    "compatibility_level = 3.6",
    `queue_directory = ${dir}/queue`,
    `data_directory = ${dir}/data`,
    // To start-fg's output, redirected to DIR/maillog; a file named here made Postfix's checks fail.
    "maillog_file = /dev/stdout",
    "mail_owner = postfix",
    "setgid_group = postdrop",
    "myhostname = postfix.relay.test",
    "inet_interfaces = 127.0.0.1",
    "inet_protocols = ipv4",
    "mydestination =",
    "mynetworks = 127.0.0.0/8",
    "alias_maps =",
    "alias_database =",
    "smtpd_relay_restrictions = permit_mynetworks, reject",
    "smtpd_recipient_restrictions = permit_mynetworks, reject",
    "smtpd_banner = $myhostname ESMTP",
    "biff = no",
    ...(relayTo
      ? [
          "default_transport = smtp",
          `relayhost = [127.0.0.1]:${relayTo}`,
          "smtp_tls_security_level = none",
          "smtp_dns_support_level = disabled",
        ]
      : ["default_transport = discard"]),
    // Mail for these domains (a bounce to BOUNCE_DOMAIN) goes to the test's own listener; texthash needs no postmap.
    ...(routes.length
      ? [
          `transport_maps = texthash:${dir}/transport`,
          ...(relayTo ? [] : ["smtp_tls_security_level = none", "smtp_dns_support_level = disabled"]),
        ]
      : []),
    ...extra,
    "",
  ].join("\n");
}

/** master.cf of the package with smtpd on `port` instead of 25, and nothing chrooted. */
function masterCf(port: number): string {
  return readFileSync("/etc/postfix/master.cf", "utf8")
    .split("\n")
    .map((l) => (/^smtp\s+inet\s/.test(l) ? `${port} inet n - n - - smtpd` : l))
    .map((l) => l.replace(/^(\S+\s+\S+\s+\S+\s+\S+\s+)y(\s)/, "$1n$2"))
    .join("\n");
}

export interface PostfixOptions {
  relayTo?: number;
  baseDir?: string;
  /** Domain → port on 127.0.0.1 (a transport map): e.g. bounces to BOUNCE_DOMAIN delivered to Relay's inbound port. */
  transports?: Record<string, number>;
  /** More main.cf lines (`minimal_backoff_time = 1s`). */
  extra?: string[];
}

/** Starts a private Postfix and waits until its smtpd answers. */
export async function startPostfix(opts: PostfixOptions = {}): Promise<PrivatePostfix> {
  if (!postfixInstalled()) throw new Error("Postfix is not installed: apt-get install postfix (see .ci/run)");
  const dir = mkdtempSync(path.join(opts.baseDir ?? tmpdir(), "relay-postfix-"));
  // mkdtemp makes it 0700: Postfix's own user must reach the queue and data directories inside.
  chmodSync(dir, 0o755);
  const port = await freePort();
  mkdirSync(`${dir}/queue`, { recursive: true });
  mkdirSync(`${dir}/data`, { mode: 0o700, recursive: true });
  chownSync(`${dir}/data`, uid("postfix"), 0);
  writeFileSync(`${dir}/main.cf`, mainCf(dir, opts));
  writeFileSync(`${dir}/master.cf`, masterCf(port));
  listConfigDirectory(dir, true);
  let child: ChildProcess | undefined;
  const log = () => (existsSync(`${dir}/maillog`) ? readFileSync(`${dir}/maillog`, "utf8") : "");
  try {
    // Its log (maillog_file = /dev/stdout) goes to a file: through a pipe to this process it did not start.
    child = spawn("/bin/sh", ["-c", 'exec "$0" -c "$1" start-fg >>"$1/maillog" 2>&1', POSTFIX, dir], {
      stdio: "ignore",
    });
    const deadline = Date.now() + 60_000;
    while (!(await answers(port))) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`postfix did not start (exit ${child.exitCode}): ${log()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    child?.kill("SIGTERM");
    listConfigDirectory(dir, false);
    if (!process.env.KEEP_POSTFIX) rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const running = child;
  return {
    port,
    dir,
    log,
    stop: async () => {
      if (running.exitCode === null) {
        const exited = new Promise((r) => running.once("exit", r));
        try {
          execFileSync(POSTFIX, ["-c", dir, "stop"], { stdio: "pipe" });
        } catch {
          running.kill("SIGTERM");
        }
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (running.exitCode === null) running.kill("SIGKILL");
      }
      listConfigDirectory(dir, false);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function uid(user: string): number {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${user}:`));
  if (!line) throw new Error(`no user ${user}: is Postfix installed?`);
  return Number(line.split(":")[2]);
}

/** Whether an SMTP greeting (220) comes from the port. */
async function answers(port: number): Promise<boolean> {
  const { connect } = await import("node:net");
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1");
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.once("error", () => done(false));
    s.once("data", (d) => {
      s.write("QUIT\r\n");
      done(String(d).startsWith("220"));
    });
  });
}
