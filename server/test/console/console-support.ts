/**
 * What the console's browser tests (console.test.ts, console-issues.test.ts,
 * console-v2.test.ts) share: the console built when stale, a server serving it with a
 * Chromium page (started and stopped), the tokens it keeps, and signing in through the
 * platform's own sign-in page as the public client `console`.
 */
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { CHROMIUM_FLAGS, findBrowser } from '../../../scripts/find-browser.mjs';
import { consoleIsStale } from '../../../scripts/stale-build.mjs';
import { ADMIN, ROOT, newDataDir, removeDataDir, serverEnv, startServer, type TestServer } from '../harness.js';

/** Builds dist/console when it is missing or older than demo/console or src/ (the console alone: a few seconds). */
export function ensureConsoleBuilt(): void {
  const reason = consoleIsStale();
  if (!reason) return;
  process.stdout.write(`# building the console (${reason})\n`);
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--console-only'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error('building the console failed (node scripts/build.mjs --console-only)');
}

/** The tokens the console keeps in sessionStorage. */
export const storedTokens = (page: Page) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  page.evaluate(() => JSON.parse((globalThis as any).sessionStorage.getItem('bim-console.tokens') ?? 'null') as { accessToken: string; refreshToken?: string } | null);

/** A call (path from the server's root) with the console's own access token; the status checked, JSON parsed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function callAsConsole(page: Page, base: string, method: string, path: string, status: number, body?: unknown): Promise<any> {
  const token = (await storedTokens(page))?.accessToken;
  const answer = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  assert.equal(answer.status, status, `${method} ${path}: ${answer.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Opens the console, signs in on the platform's page and waits for the console to show. */
export async function signInThroughPage(page: Page, base: string, user = ADMIN): Promise<void> {
  await page.goto(`${base}/console/`);
  await page.waitForSelector('#signed-out:not([hidden])');
  await page.click('#sign-in');
  await page.waitForURL((url) => url.pathname === '/1.0/oauth/authorize');
  await page.fill('#email', user.email);
  await page.fill('#password', user.password);
  await page.click('button[value=allow]');
  await page.waitForSelector('#signed-in:not([hidden])');
}

export interface ConsoleSession {
  server: TestServer;
  browser: Browser;
  page: Page;
  /** The page's uncaught errors, as they come. */
  pageErrors: string[];
}

/** The console built, a server serving it (on a new data folder) and a Chromium page (headless) collecting its errors. */
export async function startConsoleSession(viewport: { width: number; height: number }, acceptDownloads = false): Promise<ConsoleSession> {
  ensureConsoleBuilt();
  const [server, executablePath] = await Promise.all([startServer(serverEnv(newDataDir(), { SERVE_PAGES: '1' })), findBrowser()]);
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_FLAGS });
  const page = await browser.newPage({ viewport, acceptDownloads });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { server, browser, page, pageErrors };
}

/** Closes the browser and stops the server (killed after 15 s: one whose import job never ended would wait for it), its data folder removed. */
export async function stopConsoleSession(session: ConsoleSession | undefined): Promise<void> {
  await session?.browser.close();
  const server = session?.server;
  if (!server) return;
  if (process.env.SHOW_SERVER_OUTPUT) console.log(server.output());
  const stopped = await Promise.race([server.stop().then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 15_000))]);
  if (!stopped) await server.kill();
  removeDataDir(server.dataDir);
}
