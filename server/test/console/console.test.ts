/**
 * The console (demo/console, served by the platform at /console/) in real Chromium
 * (Playwright, the system's browser): sign in through the platform's own sign-in page
 * (OAuth 2.0 code + PKCE as the public client `console`), create a project and a model,
 * upload a generated IFC with the file picker and follow its progress and import status,
 * open the revision in the 3D and 2D viewers and check both drew it, read a product by
 * clicking the 3D view, drop a broken file on the page and see its import error, have a
 * refused access token refreshed, see an API error message, and sign out. With the
 * BIM_MODELS folder (scripts/bim-models.mjs), one real IFC goes the same way (read there,
 * never copied). dist/console is built first when older than its sources.
 *
 *   node scripts/server-tests.mjs server/test/console/console.test.ts
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { bimModelsFolder } from '../../../scripts/bim-models.mjs';
import { sampleFile } from '../../../samples/files.js';
import { ADMIN, type TestServer } from '../harness.js';
import { startConsoleSession, stopConsoleSession, storedTokens, type ConsoleSession } from './console-support.js';

// The functions given to page.evaluate run in the page, but this file is compiled with node's types (server/tsconfig.json).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any, window: any, sessionStorage: any, MutationObserver: any, Image: any, DataTransfer: any, File: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const REAL_MODEL = 'AC20-FZK-Haus.ifc';
const LOAD_TIMEOUT = Number(process.env.CONSOLE_TEST_TIMEOUT ?? 180_000);

describe('the console', { timeout: 15 * 60_000 }, () => {
  let session: ConsoleSession | undefined;
  let server: TestServer;
  let page: Page;
  let pageErrors: string[];
  const requested: string[] = [];
  const house = sampleFile('house').ifc;

  before(async () => {
    session = await startConsoleSession({ width: 1400, height: 800 });
    ({ server, page, pageErrors } = session);
    page.on('request', (request) => requested.push(new URL(request.url()).pathname + new URL(request.url()).search));
  });

  after(() => stopConsoleSession(session));

  /** What the REST API says, with the console's own access token. */
  async function apiGet(pathAndQuery: string): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const tokens = await storedTokens(page);
    const answer = await fetch(`${server.url}/1.0${pathAndQuery}`, { headers: { Authorization: `Bearer ${tokens?.accessToken}` } });
    assert.equal(answer.status, 200, `${pathAndQuery}: ${answer.status}`);
    return answer.json();
  }

  /**
   * Uploads a file (a path: with the file picker; `{drop}`: dropped on the page) and waits for the import to end; returns the
   * import statuses the page showed, in order, and the progress bar's final state.
   */
  async function upload(file: string | { drop: string; name: string }, comment: string) {
    await page.fill('#upload-comment', comment);
    await page.evaluate(() => {
      const seen: string[] = [];
      const status = document.getElementById('import-status')!;
      new MutationObserver(() => {
        const result = status.dataset.result ?? '';
        if (seen[seen.length - 1] !== result) seen.push(result);
      }).observe(status, { attributes: true, childList: true, characterData: true, subtree: true });
      window.importResults = seen;
    });
    if (typeof file === 'string') await page.setInputFiles('#upload-file', file);
    else {
      // Dropped on the page: a real DataTransfer holding a File, as a drag from the desktop brings.
      const dataTransfer = await page.evaluateHandle(({ text, name }) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], name, { type: 'application/x-step' }));
        return transfer;
      }, { text: file.drop, name: file.name });
      await page.dispatchEvent('body', 'dragover', { dataTransfer });
      assert.ok(await page.isVisible('#drop-hint'), 'dragging a file over the page says where it goes');
      await page.dispatchEvent('body', 'drop', { dataTransfer });
    }
    try {
      await page.waitForFunction(() => ['success', 'error'].includes(document.getElementById('import-status')!.dataset.result ?? ''), undefined, { timeout: LOAD_TIMEOUT });
    } catch (error) {
      const shown = await page.evaluate(() => `${document.getElementById('import-status')!.textContent} (${window.importResults.join(' -> ')}), ${document.getElementById('upload-bytes')!.textContent}`);
      throw new Error(`the import did not end: the page shows "${shown}"\n${(error as Error).message}\nserver output:\n${server.output().slice(-3000)}`);
    }
    return page.evaluate(() => {
      const bar = document.getElementById('upload-progress');
      return {
        results: window.importResults as string[],
        text: document.getElementById('import-status')!.textContent ?? '',
        progress: { value: bar.value, max: bar.max },
        bytes: document.getElementById('upload-bytes')!.textContent ?? '',
      };
    });
  }

  /** Opens a revision with its Open button; resolves once both viewers say how it went. */
  async function openRevision(id: number) {
    await page.evaluate(() => {
      const events: string[] = [];
      window.viewerEvents = events;
      for (const name of ['viewer.load', 'viewer.error']) document.getElementById('viewer3d')!.addEventListener(name, () => events.push(name));
      for (const name of ['viewer2d.load', 'viewer2d.loadfail']) document.getElementById('viewer2d')!.addEventListener(name, () => events.push(name));
    });
    await page.click(`#revisions li[data-revision="${id}"] button`);
    await page.waitForFunction(
      () => ['view3d', 'view2d'].every((v) => ['loaded', 'error'].includes(document.getElementById(v)!.dataset.state ?? '')),
      undefined,
      { timeout: LOAD_TIMEOUT },
    );
    return page.evaluate(async () => {
      const viewer3d = document.getElementById('viewer3d');
      const viewer2d = document.getElementById('viewer2d');
      // The 3D picture: how many pixels differ from the viewer's background (#f2f3f5).
      const image = new Image();
      image.src = await viewer3d.screenshot();
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      let drawn = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i] - 242) + Math.abs(data[i + 1] - 243) + Math.abs(data[i + 2] - 245) > 30) drawn++;
      }
      const storeys = [...document.querySelectorAll('#storeys option')].map((o: { textContent: string | null }) => o.textContent ?? '');
      return {
        state3d: document.getElementById('view3d')!.dataset.state,
        state2d: document.getElementById('view2d')!.dataset.state,
        status3d: document.getElementById('status3d')!.textContent,
        status2d: document.getElementById('status2d')!.textContent,
        events: window.viewerEvents as string[],
        models3d: ((await viewer3d.modelInfo()) as { modelId: string }[]).map((m) => m.modelId),
        drawnShare: drawn / (data.length / 4),
        storeys,
        spaces: (viewer2d.getSpaces({ all: true }) as unknown[]).length,
      };
    });
  }

  it('signs in through the platform\'s sign-in page with PKCE and comes back signed in', async () => {
    const index = await fetch(`${server.url}/console/`);
    assert.equal(index.status, 200);
    assert.equal(index.headers.get('cache-control'), 'no-cache', 'index.html names the assets of its build: never kept stale');
    await page.goto(`${server.url}/console/`);
    await page.waitForSelector('#signed-out:not([hidden])');
    await page.click('#sign-in');
    await page.waitForURL((url) => url.pathname === '/1.0/oauth/authorize');
    const authorizeUrl = new URL(page.url());
    assert.equal(authorizeUrl.searchParams.get('client_id'), 'console');
    assert.equal(authorizeUrl.searchParams.get('redirect_uri'), `${server.url}/console/`);
    assert.equal(authorizeUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.match(authorizeUrl.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);

    // A wrong password first: the platform's page says so and stays.
    await page.fill('#email', ADMIN.email);
    await page.fill('#password', 'not the password');
    await page.click('button[value=allow]');
    await page.waitForSelector('.message');
    await page.fill('#password', ADMIN.password);
    await page.click('button[value=allow]');

    await page.waitForSelector('#signed-in:not([hidden])');
    assert.equal(page.url(), `${server.url}/console/`, 'the code and state are gone from the address bar');
    const tokens = await storedTokens(page);
    assert.ok(tokens?.accessToken && tokens.refreshToken, 'access and refresh token kept in sessionStorage');
    assert.ok(Array.isArray(await apiGet('/projects')), 'the stored access token works on the API');
    assert.ok(await page.isHidden('#alert'), await page.textContent('#alert-text') ?? '');
  });

  it('creates a project and a model', async () => {
    await page.fill('#new-project input[name=name]', 'Console <b>test</b>');
    await page.press('#new-project input[name=name]', 'Enter');
    await page.waitForSelector('#projects button[aria-current=true]');
    assert.equal(await page.textContent('#projects button[aria-current=true]'), 'Console <b>test</b>', 'a name is text, never markup');
    assert.equal(await page.locator('#projects b').count(), 0);
    const projects = (await apiGet('/projects')) as { id: string; name: string }[];
    const project = projects.find((p) => p.name === 'Console <b>test</b>');
    assert.ok(project, 'the project exists on the platform');

    await page.fill('#new-model input[name=name]', 'House');
    await page.click('#new-model button[type=submit]');
    await page.waitForSelector('#models button[aria-current=true]');
    assert.equal(await page.textContent('#models button[aria-current=true]'), 'House');
    const models = (await apiGet(`/models?project_id=${project.id}`)) as { name: string }[];
    assert.deepEqual(models.map((m) => m.name), ['House']);
    // The model is marked chosen before its revisions arrive: wait for their list.
    await page.waitForSelector('#revisions li.empty');
    assert.match(await page.textContent('#revisions') ?? '', /No revisions yet/);
  });

  it('uploads an IFC with the file picker, shows the bytes sent and the import reaching success', async () => {
    const upload1 = await upload(house, 'first upload from the console');
    assert.equal(upload1.results.at(-1), 'success', `${upload1.text} (statuses ${upload1.results.join(' -> ')})`);
    assert.equal(upload1.results[0], 'uploading');
    for (const result of upload1.results) assert.ok(['uploading', 'running', 'success'].includes(result), upload1.results.join(' -> '));
    assert.match(upload1.text, /revision 1/);
    const size = statSync(house).size;
    assert.equal(upload1.progress.max, size, 'the progress bar counts the file\'s bytes');
    assert.equal(upload1.progress.value, size, 'every byte sent');
    assert.match(upload1.bytes, /sent/);
    await page.waitForSelector('#revisions li[data-revision="1"]');
    const row = await page.textContent('#revisions li[data-revision="1"]');
    assert.match(row ?? '', /#1/);
    assert.match(row ?? '', /first upload from the console/);
    assert.ok(await page.getAttribute('#revisions li[data-revision="1"] time', 'datetime'), 'the revision has its date');
  });

  it('opens the revision in 3D and 2D side by side', async () => {
    const shown = await openRevision(1);
    assert.equal(shown.state3d, 'loaded', shown.status3d ?? '');
    assert.equal(shown.state2d, 'loaded', shown.status2d ?? '');
    assert.ok(shown.events.includes('viewer.load'), `3D events: ${shown.events.join(', ')}`);
    assert.ok(shown.events.includes('viewer2d.load'), `2D events: ${shown.events.join(', ')}`);
    assert.equal(shown.models3d.length, 1);
    assert.ok(shown.drawnShare > 0.02, `the 3D view drew the model (${(shown.drawnShare * 100).toFixed(1)}% of its pixels)`);
    assert.ok(shown.storeys.length >= 2, `storeys listed: ${shown.storeys.join(', ')}`);
    assert.ok(shown.spaces > 0, 'the plans have spaces');
    // The 3D viewer took the revision's scene (the manifest offers it first), not its IFC,
    // and the console starts web-ifc only for an IFC (setEngineLoading('lazy')): none yet.
    const files = requested.filter((p) => /\/viewer3d\/file\?/.test(p));
    assert.deepEqual(files.map((p) => new URL(p, server.url).searchParams.get('format')), ['scene'], files.join(', '));
    const engineAssets = [/^\/console\/assets\/ifc-worker-[\w-]+\.js$/, /^\/console\/assets\/web-ifc-[\w-]+\.wasm$/];
    assert.ok(!requested.some((p) => engineAssets.some((asset) => asset.test(p))), 'nothing of web-ifc fetched for a scene');
    // The same revision's IFC starts the engine, from the console's own build assets.
    const ifcUrl = new URL(files[0], server.url);
    ifcUrl.searchParams.set('format', 'ifc');
    await page.evaluate(async (url) => {
      const viewer3d = document.getElementById('viewer3d');
      await viewer3d.loadModel(url, { modelId: 'as-ifc' });
      await viewer3d.unloadModel('as-ifc');
    }, ifcUrl.href);
    for (const asset of engineAssets) {
      assert.ok(requested.some((p) => asset.test(p)), `${asset} among ${requested.filter((p) => p.startsWith('/console/')).join(', ')}`);
    }
    // The 2D viewer took the processed plans, and started no plan worker.
    const plans = requested.filter((p) => /\/viewer2d\/file\?/.test(p));
    assert.deepEqual(plans.map((p) => new URL(p, server.url).searchParams.get('format')), ['plans'], plans.join(', '));
    assert.ok(!requested.some((p) => /plan-worker/.test(p)), 'no plan worker');
    assert.ok(await page.isHidden('#alert'), await page.textContent('#alert-text') ?? '');
  });

  it('shows the product of an object clicked in 3D', async () => {
    const box = (await page.locator('#viewer3d').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(() => /^Object \d+/.test(document.getElementById('product-status')?.textContent ?? '') && document.querySelectorAll('#product-fields dt').length > 0, undefined, { timeout: 30_000 });
    const fields = await page.$$eval('#product-fields dt', (dts) => Object.fromEntries(dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])) as Record<string, string | undefined>);
    assert.match(fields.Type ?? '', /^Ifc/, JSON.stringify(fields));
    assert.match(fields.GlobalId ?? '', /^[0-9A-Za-z_$]{22}$/, JSON.stringify(fields));
  });

  it('reads the attributes of an object of the scene through the token\'s products URL, as the REST API has them', async () => {
    const info = await page.evaluate(async () => {
      const viewer3d = document.getElementById('viewer3d');
      const [id] = await viewer3d.each();
      return { id, records: await viewer3d.objectInfo([id]) };
    });
    const shown = (await apiGet('/projects')) as { id: string }[];
    assert.ok(shown.length > 0);
    const [record] = info.records;
    assert.equal(record.objectId, info.id);
    assert.equal(typeof record.objectId, 'string', 'object ids are the viewer\'s decimal strings');
    assert.ok(record.attributes && Object.keys(record.attributes).length > 0, JSON.stringify(record));
    assert.ok(Array.isArray(record.definedBy), JSON.stringify(record));
    assert.ok(requested.some((p) => /\/viewer3d\/products\?.*ids=/.test(p)), 'asked the products URL');
  });

  it('uploads a file dropped on the page and shows an import that fails with the platform\'s reason', async () => {
    const failed = await upload({ drop: 'this is not an IFC file\n', name: 'broken.ifc' }, 'broken');
    assert.equal(failed.results.at(-1), 'error', failed.text);
    assert.match(failed.text, /^Import failed \(error\): \S/, failed.text);
  });

  it('refreshes a refused access token and carries on', async () => {
    const before = await storedTokens(page);
    await page.evaluate(() => {
      const tokens = JSON.parse(sessionStorage.getItem('bim-console.tokens')!);
      tokens.accessToken = 'no-longer-valid';
      sessionStorage.setItem('bim-console.tokens', JSON.stringify(tokens));
    });
    await page.click('#reload-projects');
    await page.waitForFunction((old) => {
      const tokens = JSON.parse(sessionStorage.getItem('bim-console.tokens') ?? 'null');
      return tokens && tokens.accessToken !== 'no-longer-valid' && tokens.refreshToken !== old;
    }, before?.refreshToken);
    await page.waitForSelector('#projects li[data-id]');
    assert.ok(await page.isVisible('#signed-in'));
    assert.ok(await page.isHidden('#alert'), await page.textContent('#alert-text') ?? '');
    assert.ok(Array.isArray(await apiGet('/projects')), 'the new access token works');
  });

  it('uploads and opens a real IFC from BIM_MODELS', async (t) => {
    const folder = bimModelsFolder();
    const file = folder && path.join(folder, REAL_MODEL);
    if (!file || !existsSync(file)) {
      t.skip(`no ${REAL_MODEL} in the BIM_MODELS folder`);
      return;
    }
    const uploaded = await upload(file, REAL_MODEL);
    assert.equal(uploaded.results.at(-1), 'success', uploaded.text);
    assert.equal(uploaded.progress.value, statSync(file).size);
    const revision = Number(/revision (\d+)/.exec(uploaded.text)?.[1]);
    assert.ok(revision > 1, uploaded.text);
    await page.waitForSelector(`#revisions li[data-revision="${revision}"]`);
    const shown = await openRevision(revision);
    assert.equal(shown.state3d, 'loaded', shown.status3d ?? '');
    assert.equal(shown.state2d, 'loaded', shown.status2d ?? '');
    assert.ok(shown.events.includes('viewer.load') && shown.events.includes('viewer2d.load'), shown.events.join(', '));
    assert.equal(shown.models3d.length, 1, 'the revision shown before was unloaded');
    assert.ok(shown.drawnShare > 0.02, `the 3D view drew the model (${(shown.drawnShare * 100).toFixed(1)}%)`);
    assert.ok(shown.storeys.length >= 2, `storeys: ${shown.storeys.join(', ')}`);
  });

  it('shows the platform\'s error message when a call fails', async () => {
    // The project goes away behind the console's back; opening its revision then fails on the API.
    const projects = (await apiGet('/projects')) as { id: string; name: string }[];
    const project = projects.find((p) => p.name === 'Console <b>test</b>')!;
    const tokens = await storedTokens(page);
    const deleted = await fetch(`${server.url}/1.0/project?project_id=${project.id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${tokens?.accessToken}` } });
    assert.equal(deleted.status, 204);
    await page.click('#revisions li[data-revision="1"] button');
    await page.waitForSelector('#alert:not([hidden])');
    const message = (await page.textContent('#alert-text')) ?? '';
    assert.match(message, new RegExp(`Project \\(${project.id}\\) not found`), message);
    await page.click('#alert-close');
    assert.ok(await page.isHidden('#alert'));
  });

  it('signs out: the tokens revoked on the platform, and signing in again asks for the password', async () => {
    const tokens = (await storedTokens(page))!;
    await page.click('#sign-out');
    await page.waitForSelector('#signed-out:not([hidden])');
    assert.ok(await page.isHidden('#signed-in'));
    assert.equal(await storedTokens(page), null);
    const refused = await fetch(`${server.url}/oauth2/token`, { method: 'POST', body: new URLSearchParams({ client_id: 'console', grant_type: 'refresh_token', refresh_token: tokens.refreshToken! }) });
    assert.equal(refused.status, 400, 'the refresh token was revoked');
    const call = await fetch(`${server.url}/1.0/projects`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
    assert.equal(call.status, 401, 'and the access token with it');
    await page.reload();
    await page.waitForSelector('#signed-out:not([hidden])');
    // The sign-in page's session ended too: no code at once, the password again.
    await page.click('#sign-in');
    await page.waitForURL((url) => url.pathname === '/1.0/oauth/authorize');
    await page.waitForSelector('#password');
    assert.deepEqual(pageErrors, [], 'no uncaught errors on the page');
  });
});
