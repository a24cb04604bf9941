import net from "node:net";

export interface CuttableProxy {
  port: number;
  /** Destroys every connection through the proxy, both ways (the node lost); new ones are still accepted. */
  cut(): void;
  close(): Promise<void>;
}

/** A loopback port forwarding to `target` that keeps accepting, and a way to cut every connection through it. */
export async function cuttableProxy(target: { host: string; port: number }): Promise<CuttableProxy> {
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const server = net.connect(target.port, target.host);
    for (const [a, b] of [
      [client, server],
      [server, client],
    ] as const) {
      sockets.add(a);
      a.pipe(b);
      a.on("error", () => b.destroy());
      a.on("close", () => b.destroy());
    }
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  const cut = () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  return {
    port: (proxy.address() as net.AddressInfo).port,
    cut,
    async close() {
      cut();
      await new Promise((r) => proxy.close(r));
    },
  };
}
