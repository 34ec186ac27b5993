import { readSettings } from '../config.js';
import { openPlatform } from '../platform.js';
import { stopOnSignals } from '../stop-on-signals.js';

/**
 * `npm run worker`: a process that only runs jobs, for scale (API processes with JOBS=off
 * beside as many of these as the machines hold, all on one DATABASE_URL). On the embedded
 * database there is one process, which runs its jobs itself.
 */
const settings = readSettings();
if (!settings.databaseUrl) {
  process.stderr.write('npm run worker needs DATABASE_URL: on the embedded database the server runs its own jobs (JOBS=inline)\n');
  process.exit(2);
}
const platform = await openPlatform(settings, { runJobs: true });
process.stdout.write(`worker ${platform.runner!.name} taking jobs\n`);
stopOnSignals(() => platform.close(), settings.stopWaitMs);
