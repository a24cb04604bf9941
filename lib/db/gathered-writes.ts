/**
 * Writes that callers make one at a time, done together: an item waits up to `ms` for others to join it,
 * then one `write` takes them all (at most `max`) and each caller's promise settles with its own item's
 * result, or with the write's error. At most `parallel` writes run at once (default 1); what arrives
 * meanwhile forms the next. A listener answering each SMTP transaction only after its reports are
 * committed otherwise paid a transaction and its commit per mail.
 */
export function gatheredWrites<T, R>(opts: {
  ms: number;
  max: number;
  parallel?: number;
  write: (items: T[]) => Promise<R[]>;
}) {
  let queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  let writers = 0;
  let gathering = false;
  async function writer() {
    writers++;
    try {
      while (queue.length) {
        // One writer at a time waits for more to arrive; the others take what is there.
        if (opts.ms > 0 && queue.length < opts.max && !gathering) {
          gathering = true;
          await new Promise((r) => setTimeout(r, opts.ms));
          gathering = false;
        }
        const batch = queue.slice(0, opts.max);
        queue = queue.slice(batch.length);
        if (!batch.length) break;
        try {
          const results = await opts.write(batch.map((b) => b.item));
          for (const [i, b] of batch.entries()) b.resolve(results[i]!);
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      writers--;
    }
  }
  return (item: T) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (writers < (opts.parallel ?? 1) && !gathering) void writer();
    });
}
