import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSettings } from '../config.js';
import { openDatabase } from '../storage/database.js';
import { migrate } from '../storage/migrate.js';
import { createUser } from '../services/users.js';
import { createClient } from '../services/clients.js';
import { addMember, createProject } from '../services/projects.js';
import { oauthModel } from '../services/oauth-model.js';
import { newToken } from '../services/secrets.js';

/**
 * What authorization.test.ts needs in the database before its server starts, made in one
 * process on the server's storage settings (the platform's cli makes one thing per
 * process, and each costs a Node start): users, applications, projects with their
 * members, and access tokens whose lifetime is over, stored as the OAuth flow stores them.
 */
export interface SetupRequest {
  users: { email: string; password: string }[];
  apps: { name: string; redirectUri: string }[];
  projects: { name: string; owner: string; members?: { email: string; role: 'admin' | 'member' }[] }[];
  /** Expired access tokens: the user's e-mail and the index of the application. */
  expired?: { email: string; app: number }[];
}

export interface SetupResult {
  users: Record<string, string>;
  apps: { client_id: string; client_secret: string; redirect_uri: string }[];
  projects: string[];
  expired: string[];
}

async function main(request: SetupRequest): Promise<SetupResult> {
  const settings = readSettings();
  const db = await openDatabase({ url: settings.databaseUrl, dataDir: settings.dataDir });
  try {
    await migrate(db);
    const users: Record<string, string> = {};
    for (const u of request.users) users[u.email] = (await createUser(db, u.email, u.email.split('@')[0], u.password)).id;
    const apps = [];
    for (const a of request.apps) {
      const client = await createClient(db, a.name, a.redirectUri);
      apps.push({ client_id: client.id, client_secret: client.secret, redirect_uri: client.redirectUri });
    }
    const projects = [];
    for (const p of request.projects) {
      const project = await createProject(db, users[p.owner], p.name);
      for (const m of p.members ?? []) await addMember(db, project.id, users[m.email], m.role);
      projects.push(project.id);
    }
    const expired = [];
    const model = oauthModel(db);
    for (const e of request.expired ?? []) {
      const accessToken = newToken();
      await model.saveToken({ accessToken, accessTokenExpiresAt: new Date(Date.now() - 60_000) }, { id: apps[e.app].client_id }, { id: users[e.email] });
      expired.push(accessToken);
    }
    return { users, apps, projects, expired };
  } finally {
    await db.close();
  }
}

/** Runs the setup in a process of its own with the server's environment (not blocking this one's event loop). */
export function setUp(env: NodeJS.ProcessEnv, request: SetupRequest): Promise<SetupResult> {
  const script = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(request)], { cwd: path.resolve(path.dirname(script), '../..'), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`setup failed (${code}): ${err}`)))));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(JSON.parse(process.argv[2]) as SetupRequest).then(
    (result) => process.stdout.write(JSON.stringify(result)),
    (error) => {
      process.stderr.write(`${(error as Error).stack}\n`);
      process.exitCode = 1;
    },
  );
}
