import { parseArgs } from 'node:util';
import { readSettings } from './config.js';
import { openDatabase } from './storage/database.js';
import { migrate } from './storage/migrate.js';
import { createUser, findUserByEmail } from './services/users.js';
import { createClient, ensurePublicClient } from './services/clients.js';
import { newId } from './services/secrets.js';
import { addMember } from './services/projects.js';
import { queueStaleScenes } from './jobs/scene-job.js';

/**
 * The platform's command line (`npm run cli -- <command>`), on the same storage settings
 * as the server (DATA_DIR or DATABASE_URL). On the embedded database, stop the server
 * first: one process at a time opens its folder.
 *
 *   user add --email E --password P [--name N]
 *   app add --name N --redirect-uri URL          registers an OAuth application (seed 000:
 *                                                 "by contacting support"); prints its id and secret
 *   app add --public [--id ID] --name N --redirect-uri URL
 *                                                 a single-page app: no secret, PKCE required (the id
 *                                                 may be chosen; the same id again updates it)
 *   member add --project P --email E --role admin|member
 *                                                 gives a user a role in a project (no HTTP route does yet)
 *   scenes                                       queues the revisions whose scene is missing or of an older
 *                                                 format version (a server or worker processes them; a server
 *                                                 also does this when it starts)
 */
const USAGE = 'usage: cli user add --email E --password P [--name N] | cli app add [--public [--id ID]] --name N --redirect-uri URL | cli member add --project P --email E --role admin|member | cli scenes';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    name: { type: 'string' },
    'redirect-uri': { type: 'string' },
    public: { type: 'boolean' },
    id: { type: 'string' },
    project: { type: 'string' },
    role: { type: 'string' },
  },
});

const settings = readSettings();
const db = await openDatabase({ url: settings.databaseUrl, dataDir: settings.dataDir });
try {
  await migrate(db);
  const command = positionals.join(' ');
  if (command === 'user add' && values.email && values.password) {
    const user = await createUser(db, values.email, values.name ?? values.email, values.password);
    process.stdout.write(`${JSON.stringify({ id: user.id, email: user.email })}\n`);
  } else if (command === 'app add' && values.public && values.name && values['redirect-uri']) {
    const id = values.id ?? newId();
    await ensurePublicClient(db, id, values.name, values['redirect-uri']);
    process.stdout.write(`${JSON.stringify({ client_id: id, redirect_uri: values['redirect-uri'], public: true })}\n`);
  } else if (command === 'app add' && !values.id && values.name && values['redirect-uri']) {
    const client = await createClient(db, values.name, values['redirect-uri']);
    process.stdout.write(`${JSON.stringify({ client_id: client.id, client_secret: client.secret, redirect_uri: client.redirectUri })}\n`);
  } else if (command === 'member add' && values.project && values.email && (values.role === 'admin' || values.role === 'member')) {
    const user = await findUserByEmail(db, values.email);
    if (!user) throw new Error(`No user with the e-mail ${values.email}`);
    if (!(await db.query('SELECT 1 FROM projects WHERE id = $1', [values.project])).length) throw new Error(`No project ${values.project}`);
    await addMember(db, values.project, user.id, values.role);
    process.stdout.write(`${JSON.stringify({ project_id: values.project, user_id: user.id, role: values.role })}\n`);
  } else if (command === 'scenes') {
    process.stdout.write(`${JSON.stringify({ queued: await queueStaleScenes(db) })}\n`);
  } else {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = 2;
  }
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await db.close();
}
