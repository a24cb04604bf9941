import net from "node:net";

export interface CuttableProxy {
  port: number;
  /**
   * Destroys every connection through the proxy, both ways (the node lost); new ones are still accepted.
   * `reset` sends a TCP reset rather than a FIN, as a connection with unread data ends when its process dies.
   */
  cut(options?: { reset?: boolean }): void;
  /** While refusing, every new connection is reset at once, as on a port whose PostgreSQL is dead. */
  refuse(refusing: boolean): void;
  close(): Promise<void>;
}

/** A loopback port forwarding to `target` that keeps accepting, and a way to cut every connection through it. */
export async function cuttableProxy(target: { host: string; port: number }): Promise<CuttableProxy> {
  const sockets = new Set<net.Socket>();
  let refusing = false;
  const proxy = net.createServer((client) => {
    if (refusing) return void client.resetAndDestroy();
    const server = net.connect(target.port, target.host);
    for (const [a, b] of [
      [client, server],
      [server, client],
    ] as const) {
      sockets.add(a);
      a.pipe(b);
      a.on("error", () => b.destroy());
      a.on("close", () => {
        b.destroy();
        sockets.delete(a);
      });
    }
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  const cut = (options: { reset?: boolean } = {}) => {
    for (const s of sockets) options.reset ? s.resetAndDestroy() : s.destroy();
    sockets.clear();
  };
  return {
    port: (proxy.address() as net.AddressInfo).port,
    cut,
    refuse(on) {
      refusing = on;
    },
    async close() {
      cut();
      await new Promise((r) => proxy.close(r));
    },
  };
}
