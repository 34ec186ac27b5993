import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash, randomBytes } from 'node:crypto';
import { NODE_FLAGS } from '../node-flags.mjs';

/**
 * Starts the real server (server/main.ts) as a process of its own on a fresh data folder
 * and a free port, and talks HTTP to it. TEST_DATABASE_URL, when the test run sets it,
 * puts every server on that PostgreSQL (scripts/server-tests.mjs starts one per run; each
 * data folder gets a database of its own there) and the data folder holds only blobs.
 */
const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = path.resolve(SERVER_DIR, '..');
export const ADMIN = { email: 'admin@example.com', password: 'correct horse battery' };
const TSX = [...NODE_FLAGS, '--import', 'tsx'];

export interface TestServer {
  url: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  process: ChildProcess;
  output: () => string;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
  /** SIGKILL (a crash) and wait. */
  kill(): Promise<void>;
}

export function newDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'bim-platform-test-'));
}

export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The database of a data folder on the run's PostgreSQL (TEST_DATABASE_URL): one database
 * per folder, made when first asked for, so servers of different tests never share rows
 * and a server restarted on the same folder finds its own. Undefined on PGlite.
 */
export function databaseFor(dataDir: string, base = process.env.TEST_DATABASE_URL): string | undefined {
  if (!base) return undefined;
  const name = `bim_${path.basename(dataDir).replace(/[^A-Za-z0-9]/g, '_').toLowerCase()}`;
  const script = `const pg = require('pg'); const c = new pg.Client(process.argv[1]);
    c.connect().then(() => c.query("SELECT 1 FROM pg_database WHERE datname = '${name}'"))
      .then((r) => r.rows.length ? null : c.query('CREATE DATABASE ${name}')).then(() => c.end())
      .catch((e) => { console.error(e.message); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', script, base], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`could not make the database ${name}: ${result.stderr}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.href;
}

export function serverEnv(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseFor(dataDir) ?? '',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    SERVE_PAGES: '0',
    SAMPLE_PROJECT: '0',
    JOB_POLL_MS: '200',
    // Each server's reader threads would read the house three times at start: seconds of the suite's time.
    READER_WARM_UP: '0',
    ...extra,
  };
}

export async function startServer(env: NodeJS.ProcessEnv, script = 'main.ts'): Promise<TestServer> {
  const child = spawn(process.execPath, [...TSX, path.join(SERVER_DIR, script)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${output}`)), 60_000);
    const look = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${output}`));
    });
  });
  const end = (signal: NodeJS.Signals) => async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { url, dataDir: env.DATA_DIR!, env, process: child, output: () => output, stop: end('SIGTERM'), kill: end('SIGKILL') };
}

/** Resolves once the server's output holds `text`; rejects, with the output, after `timeoutMs`. */
export async function waitForOutput(server: TestServer, text: string, timeoutMs = 60_000): Promise<void> {
  for (const until = Date.now() + timeoutMs; !server.output().includes(text); ) {
    if (Date.now() > until) throw new Error(`no "${text}" from the server in ${timeoutMs / 1000} s:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs server/cli.ts; resolves with its JSON answer. */
export function cli(env: NodeJS.ProcessEnv, ...args: string[]): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  const result = spawnSync(process.execPath, [...TSX, path.join(SERVER_DIR, 'cli.ts'), ...args], { cwd: ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`cli ${args.join(' ')} failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

export interface OAuthApp {
  client_id: string;
  client_secret: string;
  redirect_uri: string;
}

/** Goes through the authorization-code flow as a browser without script would: the form, then the token. */
export async function signInAs(base: string, app: OAuthApp, user = ADMIN, pkce = false): Promise<{ access_token: string; refresh_token: string; expires_in: number }> {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({ client_id: app.client_id, redirect_uri: app.redirect_uri, response_type: 'code', state: 'xyz' });
  if (pkce) {
    query.set('code_challenge', createHash('sha256').update(verifier).digest('base64url'));
    query.set('code_challenge_method', 'S256');
  }
  const code = await authorize(base, query, user);
  const body = new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, code, grant_type: 'authorization_code' });
  if (pkce) body.set('code_verifier', verifier);
  const answer = await fetch(`${base}/1.0/oauth/access_token`, { method: 'POST', body });
  if (answer.status !== 200) throw new Error(`token: ${answer.status} ${await answer.text()}`);
  return answer.json() as Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Posts the sign-in form with consent; resolves with the code from the redirect. */
export async function authorize(base: string, query: URLSearchParams, user = ADMIN, path = '/1.0/oauth/authorize'): Promise<string> {
  const form = new URLSearchParams(query);
  form.set('email', user.email);
  form.set('password', user.password);
  form.set('decision', 'allow');
  const answer = await fetch(`${base}${path}`, { method: 'POST', body: form, redirect: 'manual' });
  if (answer.status !== 302) throw new Error(`authorize: ${answer.status} ${await answer.text()}`);
  const location = new URL(answer.headers.get('location')!);
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`authorize: no code in ${location}`);
  return code;
}

/** A JSON API client with a Bearer token. */
export function api(base: string, token: string) {
  const call = async (method: string, pathAndQuery: string, body?: unknown) => {
    const init: RequestInit = { method, headers: { Authorization: `Bearer ${token}` } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
    }
    const answer = await fetch(`${base}/1.0${pathAndQuery}`, init);
    const text = await answer.text();
    let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: answer.status, json, text, headers: answer.headers };
  };
  return {
    get: (p: string) => call('GET', p),
    post: (p: string, body?: unknown) => call('POST', p, body ?? {}),
    put: (p: string, body?: unknown) => call('PUT', p, body),
    delete: (p: string) => call('DELETE', p),
    /** PUT /model/import with the file as the body. */
    async upload(modelId: string, fileName: string, bytes: Uint8Array | string, extra: Record<string, string> = {}) {
      const query = new URLSearchParams({ model_id: modelId, file_name: fileName, comment: `upload of ${fileName}`, ...extra });
      const answer = await fetch(`${base}/1.0/model/import?${query}`, { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' }, body: bytes });
      return { status: answer.status, json: (await answer.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
    },
    /** Polls the import status until it is no longer running. */
    async waitForImport(importToken: string, timeoutMs = 120_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const status = await call('GET', `/model/import/status?token=${importToken}`);
        if (status.status !== 200 || status.json.result !== 'running') return status;
        if (Date.now() > until) throw new Error(`import ${importToken} still running after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
  };
}
