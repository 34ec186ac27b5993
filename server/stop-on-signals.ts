/**
 * SIGINT and SIGTERM stop the process cleanly: `close` lets requests and jobs under way
 * finish. Not forever: a request waiting on a database out of reach would hold the stop
 * (and a process manager's restart) without end, so after `waitMs` the process ends
 * anyway. Ending mid-job loses nothing: a job whose process ended is taken again when its
 * lease runs out.
 */
export function stopOnSignals(close: () => Promise<void>, waitMs: number) {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      setTimeout(() => {
        process.stderr.write(`stopping: still waiting for requests or jobs after ${waitMs} ms; ending now\n`);
        process.exit(1);
      }, waitMs).unref();
      await close();
      process.exit(0);
    });
  }
}
