#!/usr/bin/env node
// Finds a Chrome/Chromium executable for the browser tests.
//
//   import { findBrowser } from './find-browser.mjs';
//   const path = await findBrowser({ install: true });
//
// Order: $CHROME_PATH, well-known system paths, then (only with install: true)
// `apt-get install chromium` when root with apt-get, else Playwright's own download.
// Prints one line on stderr saying which browser is used and how it was found.
// Run directly (`node scripts/find-browser.mjs [--install]`) it prints the path on stdout.
import { existsSync, accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Flags that make Debian's Chromium work headless as root on these machines (TOOLCHAIN.md),
 * with software WebGL; --expose-gc lets memory tests and benchmarks collect before measuring.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
  '--js-flags=--expose-gc',
];

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const SYSTEM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
];

const HELP =
  'No Chrome/Chromium found for the browser tests.\n' +
  '  Install one, e.g. `apt-get install chromium` (Debian/Ubuntu) or Google Chrome,\n' +
  '  or set CHROME_PATH to the executable of a Chrome/Chromium.';

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function firstSystemBrowser() {
  return SYSTEM_PATHS.find(p => existsSync(p) && isExecutable(p));
}

function say(line) {
  process.stderr.write(`${line}\n`);
}

function hasCommand(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, {
    // stdout of the installers goes to stderr: stdout is reserved for the path (CLI mode)
    stdio: ['ignore', process.stderr, 'inherit'],
    cwd: ROOT,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return r.status === 0;
}

function playwrightChromium() {
  try {
    const require = createRequire(path.join(ROOT, 'package.json'));
    const { chromium } = require('playwright');
    const exe = chromium.executablePath();
    return exe && existsSync(exe) ? exe : undefined;
  } catch {
    return undefined;
  }
}

/**
 * @param {{ install?: boolean }} [options]
 * @returns {Promise<string>} absolute path of a Chrome/Chromium executable
 */
export async function findBrowser({ install = false } = {}) {
  const env = process.env.CHROME_PATH;
  if (env) {
    if (existsSync(env)) {
      say(`browser: ${env} (from CHROME_PATH)`);
      return env;
    }
    say(`warning: CHROME_PATH=${env} does not exist; looking elsewhere`);
  }

  const system = firstSystemBrowser();
  if (system) {
    say(`browser: ${system} (found on the system)`);
    return system;
  }

  if (install) {
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    if (isRoot && hasCommand('apt-get')) {
      say('No Chrome/Chromium found: installing Debian chromium with apt-get (apt-get update && apt-get install -y chromium)');
      if (run('apt-get', ['update']) && run('apt-get', ['install', '-y', 'chromium'])) {
        const installed = firstSystemBrowser();
        if (installed) {
          say(`browser: ${installed} (installed with apt-get)`);
          return installed;
        }
        say(`apt-get installed chromium, but none of ${SYSTEM_PATHS.join(', ')} is executable`);
      } else {
        say('apt-get install chromium failed');
      }
    }

    let pw = playwrightChromium();
    if (!pw) {
      say('No Chrome/Chromium found: trying Playwright\'s download (npx playwright install chromium)');
      run('npx', ['--no-install', 'playwright', 'install', 'chromium']);
      pw = playwrightChromium();
    }
    if (pw) {
      say(`browser: ${pw} (Playwright's chromium)`);
      return pw;
    }
  } else {
    const pw = playwrightChromium();
    if (pw) {
      say(`browser: ${pw} (Playwright's chromium, already downloaded)`);
      return pw;
    }
  }

  say(HELP);
  process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const exe = await findBrowser({ install: process.argv.includes('--install') });
  process.stdout.write(`${exe}\n`);
}
