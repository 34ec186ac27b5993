/**
 * What the console's browser tests (console.test.ts, console-issues.test.ts) share: the
 * console built when stale, the tokens it keeps, and signing in through the platform's
 * own sign-in page as the public client `console`.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright';
import { consoleIsStale } from '../../scripts/stale-build.mjs';
import { ADMIN, ROOT } from './harness.js';

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
