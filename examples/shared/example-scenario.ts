/**
 * The one scenario every example app goes through (examples/README.md, "What the apps
 * show"), in real Chromium against a real platform server on PGlite:
 * sign in on the platform's page, list projects, open one (3D and 2D side by side), click
 * an object in 3D and see its properties, create a BCF topic from the view (checked on
 * the server), close and reopen the project: no page errors, and one live WebGL context.
 *
 *   describeExample({ name: 'React', clientId: 'example-react', build: () => buildExample('react') });
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright';
import { CHROMIUM_FLAGS, findBrowser } from '../../scripts/find-browser.mjs';
import { sampleFile } from '../../samples/files.js';
import { ADMIN, api, cli, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type OAuthApp, type TestServer } from '../../server/test/harness.js';
import { serveApp } from './serve.mjs';

// The functions given to page.evaluate run in the page; this file is compiled with node's types.
declare const document: any, window: any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface ExampleApp {
  /** As the test names say it: 'React', 'Vue', 'Angular'. */
  name: string;
  /** The public OAuth client the app signs in as. */
  clientId: string;
  /** Builds the app (scripts/example.mjs); returns the folder of its built files. */
  build: () => string;
}

const LOAD_TIMEOUT = 120_000;

/** Counts the page's WebGL contexts that are not lost: a released viewer loses its own. */
export const COUNT_WEBGL = `(() => {
  const contexts = [];
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
    const context = getContext.call(this, type, ...rest);
    if (context && /webgl/.test(type) && !contexts.includes(context)) contexts.push(context);
    return context;
  };
  window.liveWebglContexts = () => contexts.filter((context) => !context.isContextLost()).length;
})();`;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface TestPlatform {
  server: TestServer;
  /** A project of the admin's with the generated house imported. */
  project: { id: string; name: string };
  stop: () => Promise<void>;
}

/**
 * A platform server on a new data folder (PGlite) with the app registered as a public
 * client (no secret, PKCE; its callback is its own page) and the generated house imported.
 */
export async function startTestPlatform(clientId: string, name: string, appUrl: string): Promise<TestPlatform> {
  const env = serverEnv(newDataDir());
  // Registered first: the command opens the embedded database, which one process at a time may hold.
  cli(env, 'app', 'add', '--public', '--id', clientId, '--name', name, '--redirect-uri', appUrl);
  const setUp = cli(env, 'app', 'add', '--name', 'Test set-up', '--redirect-uri', 'http://127.0.0.1/callback');
  const server = await startServer(env);
  const stop = async () => {
    await server.stop();
    removeDataDir(server.dataDir);
  };
  try {
    return { server, project: await importHouse(server, setUp), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A project with the generated house imported, through the v1 API as a server-side app. */
async function importHouse(server: TestServer, app: OAuthApp): Promise<{ id: string; name: string }> {
  const { access_token } = await signInAs(server.url, app);
  const v1 = api(server.url, access_token);
  const project = (await v1.post('/projects/new', { name: 'Example house' })).json;
  const model = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'House' })).json;
  const upload = await v1.upload(model.id, 'house.ifc', readFileSync(sampleFile('house').ifc));
  assert.equal(upload.status, 200, JSON.stringify(upload.json));
  const status = await v1.waitForImport(upload.json.token);
  assert.equal(status.json.result, 'success', status.text);
  return project;
}

export function describeExample(app: ExampleApp): void {
  describe(`the ${app.name} example in Chromium`, { timeout: 10 * 60_000 }, () => {
    let platform: TestPlatform | undefined;
    let served: { url: string; close: () => Promise<void> } | undefined;
    let browser: Browser | undefined;
    let page: Page;
    let project: { id: string; name: string };
    const pageErrors: string[] = [];
    const consoleErrors: string[] = [];

    before(async () => {
      const dist = app.build();
      const port = await freePort();
      platform = await startTestPlatform(app.clientId, `${app.name} example`, `http://127.0.0.1:${port}/`);
      ({ project } = platform);
      served = await serveApp({ root: dist, platform: platform.server.url, port });
      browser = await chromium.launch({ executablePath: await findBrowser(), headless: true, args: CHROMIUM_FLAGS });
      page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
      await page.addInitScript(COUNT_WEBGL);
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()); });
    });

    after(async () => {
      await browser?.close();
      await served?.close();
      await platform?.stop();
    });

    const state = (selector: string) => page.getAttribute(selector, 'data-state');
    const waitForState = (selector: string, states: string[]) =>
      page.waitForFunction(({ selector, states }) => states.includes(document.querySelector(selector)?.dataset.state), { selector, states }, { timeout: LOAD_TIMEOUT });

    /** Opens the project and waits for both viewers; fails with the app's own message when they fail. */
    async function openProject() {
      await page.click(`#projects button[data-project-id="${project.id}"]`);
      await page.waitForSelector('section#project bim-viewer-3d');
      await page.waitForSelector('section#project bim-viewer-2d');
      await waitForState('#viewer-status', ['loaded', 'error']);
      assert.equal(await state('#viewer-status'), 'loaded', await page.textContent('#viewer-status') ?? '');
    }

    it('signs in through the platform\'s OAuth page and lists the user\'s projects', async () => {
      await page.goto(served!.url);
      await page.click('#sign-in');
      await page.waitForURL((url) => url.pathname === '/1.0/oauth/authorize');
      await page.fill('#email', ADMIN.email);
      await page.fill('#password', ADMIN.password);
      await page.click('button[value=allow]');
      await page.waitForSelector(`#projects button[data-project-id="${project.id}"]`);
      assert.equal(new URL(page.url()).search, '', 'the code and state are taken out of the address bar');
      assert.equal((await page.textContent(`#projects button[data-project-id="${project.id}"]`))?.trim(), project.name);
      assert.ok(await page.isVisible('#sign-out'));
    });

    it('opens a project in 3D and 2D side by side', async () => {
      await openProject();
      const boxes = await page.evaluate(() => ['bim-viewer-3d', 'bim-viewer-2d'].map((tag) => document.querySelector(tag).getBoundingClientRect().toJSON()));
      assert.ok(boxes.every((box: { width: number; height: number }) => box.width >= 200 && box.height >= 200), JSON.stringify(boxes));
      assert.ok(boxes[0].top < boxes[1].bottom && boxes[1].top < boxes[0].bottom, `side by side: ${JSON.stringify(boxes)}`);
      const models = await page.evaluate(async () => (await document.querySelector('bim-viewer-3d').modelInfo()).length);
      assert.equal(models, 1);
      const storeys = await page.evaluate(() => document.querySelector('bim-viewer-2d').getStoreys().length);
      assert.ok(storeys >= 1, `the plan has ${storeys} storeys`);
      assert.equal(await state('#properties'), 'empty');
    });

    it('shows the properties of the object clicked in 3D', async () => {
      const viewer = (await page.$('bim-viewer-3d'))!;
      const box = (await viewer.boundingBox())!;
      // The house fills the middle of the fitted view; a few points in case one falls on a gap.
      for (const [fx, fy] of [[0.5, 0.5], [0.5, 0.6], [0.45, 0.55], [0.55, 0.45]]) {
        await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
        const shown = await page.waitForFunction(() => document.querySelector('#properties')?.dataset.state === 'shown', undefined, { timeout: 3000 }).then(() => true, () => false);
        if (shown) break;
      }
      await waitForState('#properties', ['shown']);
      const shown = await page.evaluate(() => {
        // No named helper here: tsx would wrap it in a `__name` call the page does not have.
        const panel = document.querySelector('#properties');
        const [name, type, globalId] = ['name', 'type', 'globalId'].map((field) => panel.querySelector(`[data-field="${field}"]`)?.textContent.trim());
        return { id: panel.dataset.objectId, name, type, globalId, rows: panel.querySelectorAll('tr').length };
      });
      const selected = await page.evaluate(async () => (await document.querySelector('bim-viewer-3d').eachSelected()) as string[]);
      assert.deepEqual(selected, [shown.id], 'the panel shows the selected object');
      const [product] = await page.evaluate(async (id: string) => document.querySelector('bim-viewer-3d').getProducts([id], { attributes: true }), shown.id);
      assert.equal(shown.type, product.type);
      assert.match(shown.type!, /^Ifc/);
      assert.equal(shown.globalId, product.globalId);
      assert.equal(shown.name, product.name);
      assert.ok(shown.rows >= Math.min(3, Object.keys(product.attributes ?? {}).length), `${shown.rows} attribute rows`);
    });

    it('creates a BCF topic from the view, stored with its viewpoint on the platform', async () => {
      const title = `Check the wall (${app.name})`;
      await page.fill('#topic-title', title);
      await page.click('#create-topic');
      await waitForState('#topic-status', ['created', 'error']);
      assert.equal(await state('#topic-status'), 'created', await page.textContent('#topic-status') ?? '');
      const guid = (await page.getAttribute('#topic-status', 'data-guid'))!;
      const token = await page.evaluate((key: string) => JSON.parse(window.sessionStorage.getItem(key)).access_token, `${app.clientId}.tokens`);
      const get = async (path: string) => {
        const answer = await fetch(`${platform!.server.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
        assert.equal(answer.status, 200, `${path}: ${answer.status}`);
        return answer.json() as Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      };
      const [board] = await get(`/bcf/3.0/projects?platform_project_id=${project.id}`);
      const topic = await get(`/bcf/3.0/projects/${board.project_id}/topics/${guid}`);
      assert.equal(topic.title, title);
      const viewpoints = await get(`/bcf/3.0/projects/${board.project_id}/topics/${guid}/viewpoints`);
      assert.equal(viewpoints.length, 1);
      assert.ok(viewpoints[0].perspective_camera ?? viewpoints[0].orthogonal_camera, 'the viewpoint has the camera');
      assert.equal(viewpoints[0].snapshot?.snapshot_type, 'png', 'and a snapshot');
    });

    it('closes and reopens the project without errors or a leaked WebGL context', async () => {
      assert.equal(await page.evaluate(() => window.liveWebglContexts()), 1);
      await page.click('#close-project');
      await page.waitForSelector('#projects');
      assert.equal(await page.$('bim-viewer-3d'), null, 'the viewers are unmounted');
      await page.waitForFunction(() => window.liveWebglContexts() === 0, undefined, { timeout: 5000 }).catch(() => undefined);
      assert.equal(await page.evaluate(() => window.liveWebglContexts()), 0, 'the closed viewer released its WebGL context');
      await openProject();
      assert.equal(await page.evaluate(() => window.liveWebglContexts()), 1, 'one live WebGL context after reopening');
      assert.equal(await state('#properties'), 'empty');
      assert.deepEqual(pageErrors, []);
      assert.deepEqual(consoleErrors, []);
    });

    it('closes a project while it still loads, quietly', async () => {
      await page.click('#close-project');
      await page.click(`#projects button[data-project-id="${project.id}"]`);
      await page.waitForSelector('section#project bim-viewer-3d');
      await page.click('#close-project');
      await page.waitForSelector('#projects');
      await page.waitForTimeout(2000); // what the cut-short loads would report comes within it
      assert.equal(await page.$('#app-error'), null, await page.textContent('#app-error').catch(() => '') ?? '');
      assert.equal(await page.evaluate(() => window.liveWebglContexts()), 0);
      assert.deepEqual(pageErrors, []);
      assert.deepEqual(consoleErrors, []);
    });
  });
}
