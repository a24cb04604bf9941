/*
 * Renders take turns with the event loop. A claim hands the sender a few hundred messages at once, and
 * each one's rendering is synchronous: rendered back to back they held the sender's thread for tens of
 * milliseconds (hundreds on a busy machine), while every SMTP connection's reply and every outcome's
 * write waited behind them and the connections stood idle. A render now waits for its turn, one turn per
 * turn of the event loop, so the I/O that arrived meanwhile is handled between any two renders.
 */

const waiting: (() => void)[] = [];
let scheduled = false;

function next(): void {
  waiting.shift()?.();
  // Scheduled from within the check phase, the next turn runs after the loop's next poll for I/O.
  if (waiting.length) setImmediate(next);
  else scheduled = false;
}

/** Resolves when this message may render: after the ones that asked before it, one per turn of the loop. */
export function renderTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(next);
    }
  });
}
