import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './harness.js';
import { NODE_FLAGS } from '../node-flags.mjs';
import { soaking, writeSoakFigures } from './soak.js';

/**
 * What killed-processes.test.ts needs besides harness.ts: `npm run worker` processes, and
 * the part's soak figures kept per database.
 */

export interface Worker {
  process: ChildProcess;
  output: () => string;
  alive: () => boolean;
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts server/jobs/worker-main.ts (`npm run worker`); resolves once it takes jobs. */
export async function startWorker(env: NodeJS.ProcessEnv): Promise<Worker> {
  const child = spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', path.join(ROOT, 'server/jobs/worker-main.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start in 60 s:\n${output}`)), 60_000);
    child.stdout!.on('data', () => {
      if (/taking jobs/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited (${code}) before taking jobs:\n${output}`));
    });
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  const end = (signal: NodeJS.Signals) => async () => {
    if (alive()) child.kill(signal);
    await exited;
  };
  return { process: child, output: () => output, alive, kill: end('SIGKILL'), stop: end('SIGTERM') };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The soak runs the part once per database, in two processes: each adds its own entry to
 * bench/results/soak/killed-processes.json (the figures of the other database kept).
 */
export function writeFiguresFor(database: string, figures: Record<string, number | string>): void {
  if (!soaking()) return;
  const file = path.join(ROOT, 'bench/results/soak/killed-processes.json');
  let byDatabase: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      byDatabase = JSON.parse(readFileSync(file, 'utf8')).figures ?? {};
    } catch {
      byDatabase = {};
    }
  }
  byDatabase[database] = { ...figures, date: new Date().toISOString() };
  writeSoakFigures('killed-processes', byDatabase);
}
