/**
 * Writes that callers make one at a time, done together: an item waits up to `ms` for others to join it,
 * then one `write` takes them all (at most `max`) and each caller's promise settles with its own item's
 * result, or with the write's error. One write runs at a time; what arrives during it forms the next. A
 * listener answering each SMTP transaction only after its reports are committed otherwise paid a
 * transaction and its commit per mail.
 */
export function gatheredWrites<T, R>(opts: { ms: number; max: number; write: (items: T[]) => Promise<R[]> }) {
  let queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  let running = false;
  async function drain() {
    running = true;
    try {
      while (queue.length) {
        if (opts.ms > 0 && queue.length < opts.max) await new Promise((r) => setTimeout(r, opts.ms));
        const batch = queue.slice(0, opts.max);
        queue = queue.slice(batch.length);
        try {
          const results = await opts.write(batch.map((b) => b.item));
          for (const [i, b] of batch.entries()) b.resolve(results[i]!);
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      running = false;
    }
  }
  return (item: T) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!running) void drain();
    });
}
