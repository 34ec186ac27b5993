import { readSettings } from './config.js';
import { openPlatform } from './platform.js';
import { buildApp } from './app.js';
import { CONSOLE_CLIENT, pages } from './pages.js';
import { ensurePublicClient } from './services/clients.js';
import { stopOnSignals } from './stop-on-signals.js';

/**
 * `npm start`'s server: the platform on its embedded defaults (PGlite and files in
 * DATA_DIR), jobs in this process unless JOBS=off. Prints `listening on <url>` once ready.
 */
const settings = readSettings();
const platform = await openPlatform(settings, { runJobs: settings.jobs === 'inline' });
const app = await buildApp({
  db: platform.db,
  blobs: platform.blobs,
  maxUploadBytes: settings.maxUploadBytes,
  maxUrlBytes: settings.maxUrlBytes,
  pokeJobs: () => platform.runner?.poke(),
  oauth: settings.oauth,
}, { logLevel: settings.logLevel, pages: settings.servePages ? pages : undefined, rateLimits: settings.rateLimits });
const url = await app.listen({ host: settings.host, port: settings.port });
const publicUrl = (process.env.PUBLIC_URL ?? url).replace(/\/$/, '');
// The console signs in as a public OAuth client whose callback is this server's own /console/.
if (settings.servePages) await ensurePublicClient(platform.db, CONSOLE_CLIENT, 'Console', `${publicUrl}/console/`);
for (const client of settings.publicClients) await ensurePublicClient(platform.db, client.id, client.id, client.redirectUri);
process.stdout.write(`listening on ${url}\n`);

stopOnSignals(async () => {
  await app.close();
  await platform.close();
}, settings.stopWaitMs);
