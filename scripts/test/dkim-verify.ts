import { execFileSync } from "node:child_process";

/*
 * DKIM verified by an independent implementation: Debian's python3-dkim (dkimpy), with a resolver that
 * answers the one TXT record the test publishes. /usr/bin/python3, not the first python3 on PATH, which
 * may be a build that does not see Debian's modules.
 */
const SCRIPT = `
import sys, json, dkim
record = json.loads(sys.argv[1])
def dnsfunc(name, timeout=5):
    n = name.decode() if isinstance(name, bytes) else name
    return record["value"].encode() if n.rstrip(".") == record["name"] else None
msg = sys.stdin.buffer.read()
print(json.dumps({"ok": bool(dkim.verify(msg, dnsfunc=dnsfunc))}))
`;

/** Whether the message's DKIM signature verifies against the given TXT record. */
export function dkimVerifies(message: Buffer, record: { name: string; value: string }): boolean {
  const out = execFileSync("/usr/bin/python3", ["-c", SCRIPT, JSON.stringify(record)], {
    input: message,
    timeout: 30_000,
  });
  return (JSON.parse(String(out)) as { ok: boolean }).ok;
}
