/**
 * Collects items and sends them in groups: when `max` are waiting, `intervalMs` after the first of a
 * group arrived, or on `flush()`. Each `add` returns a promise settled with its group's send. The timer is
 * unref'd in Node so a pending group never keeps a process alive (process exit flushes instead).
 */
export class Batcher<T> {
  #items: { item: T; resolve: () => void; reject: (e: unknown) => void }[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFlight = new Set<Promise<void>>();

  constructor(
    private readonly send: (items: T[]) => Promise<void>,
    private readonly max: number,
    private readonly intervalMs: number,
  ) {}

  get pending(): number {
    return this.#items.length;
  }

  add(item: T): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.#items.push({ item, resolve, reject }));
    done.catch(() => {}); // the caller may not await: a failed send must not be an unhandled rejection
    if (this.#items.length >= this.max) void this.#drain();
    else if (!this.#timer) {
      this.#timer = setTimeout(() => void this.#drain(), this.intervalMs);
      (this.#timer as { unref?: () => void }).unref?.();
    }
    return done;
  }

  /** Sends everything waiting and waits for every send in flight. */
  async flush(): Promise<void> {
    while (this.#items.length) await this.#drain();
    await Promise.allSettled([...this.#inFlight]);
  }

  #drain(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const group = this.#items.splice(0, this.max);
    if (this.#items.length) {
      this.#timer = setTimeout(() => void this.#drain(), this.#items.length >= this.max ? 0 : this.intervalMs);
      (this.#timer as { unref?: () => void }).unref?.();
    }
    if (!group.length) return Promise.resolve();
    const sending = this.send(group.map((g) => g.item)).then(
      () => {
        for (const g of group) g.resolve();
      },
      (e) => {
        for (const g of group) g.reject(e);
      },
    );
    this.#inFlight.add(sending);
    void sending.finally(() => this.#inFlight.delete(sending));
    return sending;
  }
}
