/**
 * Script payloads in the console (issue 22, part 6): a project, a model, a revision comment,
 * an issue board, a topic's title and description, a comment, a topic type and a topic
 * status, each named with markup that would run script if a page parsed it as HTML, are
 * shown by the console (demo/console, real Chromium against the real server) literally as
 * text: no element is made from them and the flag they would set stays unset. (The console
 * names users by their e-mail addresses, which cannot carry markup.)
 *
 *   node scripts/server-tests.mjs server/test/console/console-payloads.test.ts
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright';
import { sampleFile } from '../../../samples/files.js';
import { api, type TestServer } from '../harness.js';
import { signInThroughPage, startConsoleSession, stopConsoleSession, storedTokens, callAsConsole, type ConsoleSession } from './console-support.js';

// The functions given to page.evaluate run in the page, but this file is compiled with node's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any, window: any;
type Json = any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const LOAD_TIMEOUT = Number(process.env.CONSOLE_TEST_TIMEOUT ?? 180_000);

/** Markup that sets window.__pwned when parsed as HTML (or followed as a link). Distinct, so each shows where it belongs. */
const payload = (where: string, i: number) => [
  `<img src=x onerror="window.__pwned='${where}'">`,
  `<script>window.__pwned='${where}'</script>`,
  `javascript:window.__pwned='${where}'`,
  `"><svg onload="window.__pwned='${where}'">`,
][i % 4] + ` ${where}`;

const P = {
  project: payload('project', 0),
  model: payload('model', 1),
  revision: payload('revision', 2),
  board: payload('board', 3),
  title: payload('title', 0),
  description: payload('description', 1),
  comment: payload('comment', 2),
  type: payload('type', 3),
  status: payload('status', 0),
};

describe('script payloads in the console are shown as text, never run', { timeout: 10 * 60_000 }, () => {
  let session: ConsoleSession | undefined;
  let server: TestServer;
  let page: Page;
  let pageErrors: string[];
  let project: Json;
  let model: Json;
  let board: Json;

  before(async () => {
    session = await startConsoleSession({ width: 1500, height: 900 });
    ({ server, page, pageErrors } = session);
  });

  after(() => stopConsoleSession(session));

  const bcf = (method: string, path: string, status: number, body?: unknown): Promise<Json> => callAsConsole(page, server.url, method, `/bcf${path}`, status, body);

  /** No payload ran, none became an element, the page threw nothing. */
  async function nothingRan() {
    await page.waitForTimeout(200); // an onerror or onload would have fired by now
    assert.equal(await page.evaluate(() => window.__pwned), undefined, 'no payload ran');
    const made = await page.evaluate(() => [...document.querySelectorAll('[onerror], [onload], img[src="x"], script:not([src])')].map((e: { outerHTML: string }) => e.outerHTML));
    assert.deepEqual(made, [], 'no element made from a payload');
    assert.deepEqual(pageErrors, [], 'no uncaught error in the page');
  }

  it('project, model and revision comment: the catalogue lists them as text', async () => {
    await signInThroughPage(page, server.url);
    const v1 = api(server.url, (await storedTokens(page))!.accessToken);
    project = (await v1.post('/projects/new', { name: P.project })).json;
    assert.equal(project.name, P.project, 'the API keeps the name as it was given');
    model = (await v1.post(`/models/new?project_id=${project.id}`, { name: P.model })).json;
    const upload = await v1.upload(model.id, 'house.ifc', readFileSync(sampleFile('house').ifc), { comment: P.revision });
    assert.equal(upload.status, 200, JSON.stringify(upload.json));
    assert.equal((await v1.waitForImport(upload.json.token)).json.result, 'success');

    await page.click('#reload-projects');
    await page.waitForSelector(`#projects li[data-id="${project.id}"] button`);
    assert.equal(await page.textContent(`#projects li[data-id="${project.id}"] button`), P.project);
    await page.click(`#projects li[data-id="${project.id}"] button`);
    await page.waitForSelector(`#models li[data-id="${model.id}"] button`);
    assert.equal(await page.textContent('#project-name'), P.project);
    assert.equal(await page.textContent(`#models li[data-id="${model.id}"] button`), P.model);
    await page.click(`#models li[data-id="${model.id}"] button`);
    await page.waitForSelector('#revisions li[data-revision="1"]');
    assert.equal(await page.textContent('#model-name'), P.model);
    assert.equal(await page.textContent('#revisions li[data-revision="1"] .comment'), P.revision);
    await nothingRan();
  });

  it('board, topic title, description, type, status and comment: the issues panel shows them as text', async () => {
    board = await bcf('POST', '/2.0/projects', 201, { name: P.board, platform_project_id: project.id });
    await bcf('POST', `/3.0/projects/${board.project_id}/extensions/statuses`, 201, { name: P.status });
    await bcf('POST', `/3.0/projects/${board.project_id}/extensions/types`, 201, { name: P.type });
    const topic = await bcf('POST', `/3.0/projects/${board.project_id}/topics`, 201, { title: P.title, description: P.description, topic_type: P.type, topic_status: P.status });
    await bcf('POST', `/3.0/projects/${board.project_id}/topics/${topic.guid}/comments`, 201, { comment: P.comment });

    await page.click('#revisions li[data-revision="1"] button');
    await page.waitForFunction(() => ['view3d', 'view2d'].every((v) => document.getElementById(v).dataset.state === 'loaded'), undefined, { timeout: LOAD_TIMEOUT });
    await page.waitForSelector('#topics li[data-number="1"]');
    assert.equal(await page.textContent('#issues-project'), P.project);
    const boards = await page.$$eval('#boards option', (options) => options.map((o) => o.textContent));
    assert.ok(boards.includes(P.board), `the board select lists ${JSON.stringify(boards)}`);
    assert.equal(await page.textContent('#topics li[data-number="1"] .title'), P.title);
    assert.equal(await page.textContent('#topics li[data-number="1"] .status'), P.status);
    for (const [filter, value] of [['status', P.status], ['type', P.type]]) {
      const options = await page.$$eval(`#filter-${filter} option`, (list) => list.map((o) => o.textContent));
      assert.ok(options.includes(value), `the ${filter} filter lists ${JSON.stringify(options)}`);
    }

    await page.click('#topics li[data-number="1"] button');
    await page.waitForSelector('#topic-comments li[data-comment]');
    assert.equal(await page.textContent('#topic-title'), `#1 ${P.title}`);
    assert.equal(await page.textContent('#topic-detail dd[data-field="Description"]'), P.description);
    assert.equal(await page.textContent('#topic-detail dd[data-field="Type"]'), P.type);
    assert.equal(await page.textContent('#topic-detail dd[data-field="Status"]'), P.status);
    assert.equal(await page.textContent('#topic-comments li[data-comment] p'), P.comment);
    await nothingRan();
  });
});
