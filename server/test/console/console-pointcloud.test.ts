/**
 * Scans in the console (demo/console) in real Chromium against the real server: a scan
 * (a generated LAS) and an IFC uploaded with the file picker, the import status shown the
 * same way, the revision list saying which is a scan (with its points), a scan revision
 * opened in 3D (no plans), and a project opened whole in 3D: one manifest with the
 * generated house and its generated scan (an E57, samples/), shown together, lined up.
 *
 *   node scripts/server-tests.mjs server/test/console/console-pointcloud.test.ts
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page, Request } from 'playwright';
import { sampleFile, sampleScan } from '../../../samples/files.js';
import { type TestServer } from '../harness.js';
import { signInThroughPage, startConsoleSession, stopConsoleSession, type ConsoleSession } from './console-support.js';
import { makeLas } from '../generated-las.js';

// The functions given to page.evaluate run in the page, but this file is compiled with node's types (server/tsconfig.json).
declare const document: any, window: any; // eslint-disable-line @typescript-eslint/no-explicit-any

const LOAD_TIMEOUT = Number(process.env.CONSOLE_TEST_TIMEOUT ?? 180_000);
type Manifest = { models: { id: string; name: string; modelType?: string; formats: { type: string }[] }[] };

describe('scans in the console', { timeout: 10 * 60_000 }, () => {
  let session: ConsoleSession | undefined;
  let server: TestServer;
  let page: Page;
  const folder = mkdtempSync(path.join(tmpdir(), 'console-scan-'));
  const scanFile = path.join(folder, 'site-scan.las');

  before(async () => {
    writeFileSync(scanFile, makeLas(5000));
    session = await startConsoleSession({ width: 1400, height: 800 });
    ({ server, page } = session);
    await signInThroughPage(page, server.url);
  });

  after(async () => {
    await stopConsoleSession(session);
    rmSync(folder, { recursive: true, force: true });
  });

  const create = async (form: string, name: string, list: string) => {
    await page.fill(`${form} input[name=name]`, name);
    await page.click(`${form} button[type=submit]`);
    await page.waitForFunction(({ list, name }) => document.querySelector(`${list} button[aria-current=true]`)?.textContent === name, { list, name });
  };

  /** The manifest the page asked for (read again here: the viewer may read it where the page's network log keeps no body). */
  const manifestOf = async (request: Request) => (await (await fetch(request.url())).json()) as Manifest;

  /** Uploads a file with the picker; resolves with the status the page shows at the end. */
  const upload = async (file: string) => {
    await page.setInputFiles('#upload-file', file);
    await page.waitForFunction(() => ['success', 'error'].includes(document.getElementById('import-status')!.dataset.result ?? ''), undefined, { timeout: LOAD_TIMEOUT });
    const status = await page.evaluate(() => ({ result: document.getElementById('import-status')!.dataset.result, text: document.getElementById('import-status')!.textContent }));
    await page.evaluate(() => (document.getElementById('import-status')!.dataset.result = ''));
    return status as { result: string; text: string };
  };

  it('takes a scan with the file picker like an IFC, and lists it as a scan with its points', async () => {
    assert.match((await page.getAttribute('#upload-file', 'accept')) ?? '', /\.ifc.*\.las.*\.laz.*\.e57/);
    await create('#new-project', 'Scanned site', '#projects');
    await create('#new-model', 'Scan', '#models');
    const status = await upload(scanFile);
    assert.equal(status.result, 'success', status.text);
    assert.match(status.text, /Imported: revision 1 of Scan/);
    await page.waitForSelector('#revisions li[data-revision="1"]');
    assert.equal(await page.getAttribute('#revisions li[data-revision="1"]', 'data-model-type'), 'point-cloud');
    assert.equal(await page.textContent('#revisions li[data-revision="1"] .kind'), 'scan, 5,000 points');
  });

  it('shows a bad scan\'s reason as the import status', async () => {
    const bad = path.join(folder, 'broken.las');
    writeFileSync(bad, makeLas(10, 5000));
    const status = await upload(bad);
    assert.equal(status.result, 'error');
    assert.match(status.text, /Import failed \(error\): (truncated|malformed): /);
  });

  it('opens a scan revision in 3D, with no plans', async () => {
    const asked = page.waitForRequest((r) => r.url().includes('/viewer3d/data'));
    await page.click('#revisions li[data-revision="1"] button');
    const { models } = await manifestOf(await asked);
    assert.deepEqual(models.map((m) => [m.name, m.modelType, m.formats[0].type]), [['Scan', 'point-cloud', 'application/vnd.platform.pointcloud']]);
    await page.waitForFunction(() => ['loaded', 'error'].includes(document.getElementById('view3d')!.dataset.state ?? ''), undefined, { timeout: LOAD_TIMEOUT });
    assert.equal(await page.getAttribute('#view3d', 'data-state'), 'loaded', (await page.textContent('#status3d')) ?? '');
    assert.match((await page.textContent('#status3d')) ?? '', /a scan of 5,000 points/);
    const info = await page.evaluate(async () => (await window.viewer3d.modelInfo()) as { modelType?: string; pointCount?: number }[]);
    assert.deepEqual(info.map((m) => [m.modelType, m.pointCount]), [['point-cloud', 5000]]);
    // The points are drawn: the 3D picture differs from the background (#f2f3f5) once nodes have streamed in.
    await page.waitForFunction(async () => {
      const image = new window.Image();
      image.src = await window.viewer3d.screenshot();
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      let drawn = 0;
      for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - 242) + Math.abs(data[i + 1] - 243) + Math.abs(data[i + 2] - 245) > 30) drawn++;
      return drawn > 500;
    }, undefined, { timeout: LOAD_TIMEOUT, polling: 500 });
    assert.equal(await page.getAttribute('#view2d', 'data-state'), 'empty');
    assert.match((await page.textContent('#status2d')) ?? '', /a scan has no plans/);
  });

  it('opens the project in 3D: the house and its scan (an E57) from one manifest, shown together where they line up', async () => {
    await create('#new-project', 'House and scan', '#projects');
    await create('#new-model', 'House', '#models');
    assert.equal((await upload(sampleFile('house').ifc)).result, 'success');
    await create('#new-model', 'House scan', '#models');
    const scanned = await upload(await sampleScan('house.scan-100k.e57'));
    assert.equal(scanned.result, 'success', scanned.text);
    await page.waitForSelector('#revisions li[data-revision="1"][data-model-type=point-cloud]');
    assert.match((await page.textContent('#revisions li[data-revision="1"] .kind')) ?? '', /^scan, [\d,]+ points$/);
    const asked = page.waitForRequest((r) => r.url().includes('/viewer3d/data'));
    await page.click('#open-project');
    const { models } = await manifestOf(await asked);
    assert.deepEqual(models.map((m) => [m.name, m.modelType ?? 'bim']).sort((a, b) => a[0].localeCompare(b[0])), [['House', 'bim'], ['House scan', 'point-cloud']]);
    await page.waitForFunction(() => ['loaded', 'error'].includes(document.getElementById('view3d')!.dataset.state ?? ''), undefined, { timeout: LOAD_TIMEOUT });
    assert.equal(await page.getAttribute('#view3d', 'data-state'), 'loaded', (await page.textContent('#status3d')) ?? '');
    assert.match((await page.textContent('#status3d')) ?? '', /House and scan, 2 models/);
    type Box = { min: { x: number; y: number; z: number }; max: { x: number; y: number; z: number } };
    const shown = await page.evaluate(async () => (await window.viewer3d.modelInfo()) as { modelType?: string; boundingBox: Box }[]);
    const house = shown.find((m) => m.modelType !== 'point-cloud')!.boundingBox;
    const scan = shown.find((m) => m.modelType === 'point-cloud')!.boundingBox;
    // The scan sees the house from ground to roof, and the ground around it: the same heights,
    // the house's plan inside the scan's (a scan placed elsewhere, or at another height, fails).
    const fit = JSON.stringify({ house, scan });
    assert.ok(Math.abs(scan.min.z - house.min.z) < 0.5 && Math.abs(scan.max.z - house.max.z) < 0.5, `the same heights: ${fit}`);
    for (const k of ['x', 'y'] as const) assert.ok(scan.min[k] <= house.min[k] + 0.5 && scan.max[k] >= house.max[k] - 0.5, `the house inside the scan along ${k}: ${fit}`);
    assert.ok(scan.max.x - scan.min.x < 10 * (house.max.x - house.min.x), `the scan is of this house's surroundings: ${fit}`);
  });
});
