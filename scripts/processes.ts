import { spawn, type ChildProcess } from "node:child_process";

/** Runs child processes side by side; when one exits or we get a signal, all are stopped. */
export function runTogether(commands: { name: string; cmd: string; args: string[] }[], env: NodeJS.ProcessEnv, onExit: () => Promise<void>) {
  const children: ChildProcess[] = [];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : null)));
    await onExit();
    process.exit(code);
  };
  for (const { name, cmd, args } of commands) {
    const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    const prefix = (chunk: Buffer) =>
      chunk.toString().split("\n").filter(Boolean).map((l) => `[${name}] ${l}`).join("\n") + "\n";
    child.stdout!.on("data", (d) => process.stdout.write(prefix(d)));
    child.stderr!.on("data", (d) => process.stderr.write(prefix(d)));
    child.on("exit", (code) => {
      if (!stopping) console.error(`[${name}] exited with ${code}; stopping everything`);
      void stop(code ?? 1);
    });
    children.push(child);
  }
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
}
