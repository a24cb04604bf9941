import { spawn } from "node:child_process";

/** smtp-server in a process of its own, counting what it accepts and keeping nothing (any AUTH is taken). */
const SINK = `
const { SMTPServer } = require("smtp-server");
let n = 0;
const server = new SMTPServer({
  authOptional: true, allowInsecureAuth: true, disabledCommands: ["STARTTLS"], logger: false,
  onAuth: (auth, _s, cb) => cb(null, { user: auth.username }),
  onData: (stream, _s, cb) => { stream.resume(); stream.on("end", () => { n++; cb(); }); },
});
process.stdin.on("data", () => process.stdout.write(JSON.stringify({ n }) + "\\n"));
server.listen(0, "127.0.0.1", () => process.stdout.write(JSON.stringify({ port: server.server.address().port }) + "\\n"));
`;

/**
 * A counting SMTP sink on loopback in its own process (so its work is not the bench's): its port, the
 * messages it has accepted so far, and a stop.
 */
export async function startCountingSink() {
  const child = spawn(process.execPath, ["-e", SINK], { stdio: ["pipe", "pipe", "inherit"] });
  const says = () =>
    new Promise<{ port?: number; n?: number }>((resolve) =>
      child.stdout!.once("data", (d) => resolve(JSON.parse(String(d)))),
    );
  const { port } = await says();
  return {
    port: port!,
    /** Messages accepted so far. */
    async arrived(): Promise<number> {
      const answer = says();
      child.stdin!.write("?\n");
      return (await answer).n!;
    },
    stop: () => child.kill(),
  };
}
