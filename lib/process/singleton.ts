/**
 * The one instance of `name` in this process, made by `make` on first use. Next bundles route handlers
 * into separate chunks, each with its own copy of a module, so module-level state would otherwise exist
 * once per chunk: a key revoked by an admin route would stay cached in the client routes, prom-client
 * would get several registries, and so on. The instance is kept on `globalThis` under
 * `Symbol.for("relay.<name>")`, which every chunk (and a reloaded module in development) resolves alike.
 */
export function processSingleton<T>(name: string, make: () => T): T {
  const g = globalThis as unknown as Record<symbol, T | undefined>;
  const key = Symbol.for(`relay.${name}`);
  return (g[key] ??= make());
}
