import { Agent, request } from "undici";
import { SMS_CONNECTIONS, sendTwilio } from "../lib/providers/transports";

/*
 * The SMS part of messages.bench.ts: Relay's Twilio transport against a bare undici loop, both to a
 * loopback Twilio stand-in running in its own process.
 */

/** A loopback stand-in for Twilio's Messages API: 201 with a sid for every form posted. */
export const TWILIO = `
const http = require("node:http");
let n = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    n++;
    res.writeHead(201, { "content-type": "application/json" });
    res.end(JSON.stringify({ sid: "SM" + n, status: "queued" }));
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => process.stdout.write(JSON.stringify({ port: server.address().port }) + "\\n"));
`;

/** SMS through Relay's transport and through a bare undici loop, same connections and in flight. */
export async function smsRates(twilioPort: number, count: number, bareFirst = false) {
  const apiBase = `http://127.0.0.1:${twilioPort}`;
  const inFlight = SMS_CONNECTIONS * 4;
  const run = async (one: (i: number) => Promise<void>) => {
    let next = 0;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < count) await one(next++);
      }),
    );
    return count / ((performance.now() - t) / 1000);
  };
  const p = { apiBase, accountSid: "ACbench", authToken: "token", from: "+15005550006" };
  const relay = () =>
    run(async (i) => {
      const r = await sendTwilio(p, { to: `+1555${String(i).padStart(7, "0")}`, body: "Your code is 123456" });
      if (!r.ok) throw new Error(`sms ${i}: ${JSON.stringify(r)}`);
    });
  const agent = new Agent({ connections: SMS_CONNECTIONS });
  const url = `${apiBase}/2010-04-01/Accounts/ACbench/Messages.json`;
  const auth = `Basic ${Buffer.from("ACbench:token").toString("base64")}`;
  const bare = () =>
    run(async (i) => {
      const res = await request(url, {
        method: "POST",
        dispatcher: agent,
        headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          To: `+1555${String(i).padStart(7, "0")}`,
          From: p.from,
          Body: "Your code is 123456",
        }).toString(),
      });
      const body = (await res.body.json()) as { sid?: string };
      if (res.statusCode !== 201 || !body.sid) throw new Error(`bare sms ${i}: ${res.statusCode}`);
    });
  // Turn about, so neither side always meets cold connections and unoptimised code.
  const first = bareFirst ? await bare() : await relay();
  const second = bareFirst ? await relay() : await bare();
  await agent.close();
  return bareFirst ? { relay: second, bare: first } : { relay: first, bare: second };
}
