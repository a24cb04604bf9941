/** Periodic housekeeping; later issues hang their periodic work (list windows, schedule sweeps) here. */
export async function handleTick(): Promise<void> {}
