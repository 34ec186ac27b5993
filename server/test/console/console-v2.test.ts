/**
 * The console's v2 parts (demo/console/settings/, library/, issues/custom-values.ts) in
 * real Chromium against the real server: sign in, open the generated house; in the
 * project's settings create an enumeration field with items, re-code, reorder and disable
 * them, see the 409 of a duplicate item, archive a field; put the field on the issues
 * panel's board as a required field with a default; create an issue (the default in its
 * detail), change its value (read back through the BCF API's `platform_custom_fields`);
 * create a document library and an item, upload two revisions, download the first (the
 * same bytes); create a collection following the latest revision, filter, finalize and
 * share it, and load the share link (and its file) without a token.
 *
 *   node scripts/server-tests.mjs server/test/console/console-v2.test.ts
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright';
import { sampleFile } from '../../../samples/files.js';
import { api, type TestServer } from '../harness.js';
import { signInThroughPage, startConsoleSession, stopConsoleSession, storedTokens, callAsConsole, type ConsoleSession } from './console-support.js';

// The functions given to page.evaluate run in the page, but this file is compiled with node's types (server/tsconfig.json).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
type Json = any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const LOAD_TIMEOUT = Number(process.env.CONSOLE_TEST_TIMEOUT ?? 180_000);
const FIRST = Buffer.from('%PDF-1.4 first revision of the plan\n');
const SECOND = Buffer.from('%PDF-1.4 second revision of the plan, a little longer\n');

describe('the console\'s custom fields, libraries and collections', { timeout: 15 * 60_000 }, () => {
  let session: ConsoleSession | undefined;
  let server: TestServer;
  let page: Page;
  let project: { id: string; name: string };
  let board: { project_id: string };
  let field: Json;
  let items: Record<string, string> = {};
  let topicGuid: string;
  let libraryItem: Json;

  before(async () => {
    session = await startConsoleSession({ width: 1500, height: 900 }, true);
    ({ server, page } = session);
  });

  after(() => stopConsoleSession(session));

  const call = (method: string, path: string, status: number, body?: unknown): Promise<Json> => callAsConsole(page, server.url, method, path, status, body);

  const v2 = (path: string) => `/v2/projects/${project.id}${path}`;
  const itemNames = async () => (await call('GET', v2(`/custom-fields/${field.id}/enumeration-items`), 200)).map((i: Json) => `${i.name}:${i.code ?? ''}${i.disabled ? ':disabled' : ''}`);
  /** Polls `read` until it answers `expected` (10 s at most), else fails with what it answered. */
  async function until(read: () => Promise<unknown>, expected: unknown): Promise<void> {
    let last: unknown;
    for (let i = 0; i < 100; i++) {
      last = await read();
      if (JSON.stringify(last) === JSON.stringify(expected)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(last, expected);
  }
  /** Waits until the settings dialog's line says something, and returns it. */
  async function settingsMessage(): Promise<string> {
    await page.waitForFunction(() => document.getElementById('settings-error').textContent !== '', undefined, { timeout: 10_000 });
    return (await page.textContent('#settings-error')) ?? '';
  }
  /** Waits until the rows of the field's items show these names, in this order. */
  async function itemRows(expected: string[]): Promise<void> {
    await page.waitForFunction((names) => JSON.stringify([...document.querySelectorAll('#enum-items li')].map((li: Json) => li.dataset.name)) === JSON.stringify(names), expected, { timeout: 10_000 })
      .catch(async () => assert.fail(`items shown: ${await page.$$eval('#enum-items li', (lis) => lis.map((li) => (li as Json).dataset.name))}, expected ${expected}`));
  }

  it('signs in, opens the generated house and creates an issue board', async () => {
    await signInThroughPage(page, server.url);
    const v1 = api(server.url, (await storedTokens(page))!.accessToken);
    project = (await v1.post('/projects/new', { name: 'Fields <b>test</b>' })).json;
    const model = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'House' })).json;
    const upload = await v1.upload(model.id, 'house.ifc', readFileSync(sampleFile('house').ifc));
    assert.equal(upload.status, 200, JSON.stringify(upload.json));
    assert.equal((await v1.waitForImport(upload.json.token)).json.result, 'success');
    await page.click('#reload-projects');
    await page.click(`#projects li[data-id="${project.id}"] button`);
    await page.click(`#models li[data-id="${model.id}"] button`);
    await page.click('#revisions li[data-revision="1"] button');
    await page.waitForFunction(() => ['view3d', 'view2d'].every((v) => document.getElementById(v).dataset.state === 'loaded'), undefined, { timeout: LOAD_TIMEOUT });
    await page.fill('#new-board input[name=name]', 'Coordination');
    await page.press('#new-board input[name=name]', 'Enter');
    await page.waitForSelector('#issues-list-panel:not([hidden])');
    await page.waitForSelector('#board-fields:not([hidden])');
    [board] = await call('GET', `/bcf/3.0/projects?platform_project_id=${project.id}`, 200);
    assert.ok(await page.isHidden('#topic-form-fields'), 'no custom fields on the form yet');
  });

  it('creates an enumeration field in the project settings, with items re-coded, reordered and disabled', async () => {
    await page.click('#open-settings');
    await page.waitForSelector('#settings[open] #new-field');
    assert.equal(await page.textContent('#settings-project'), 'Fields <b>test</b>', 'names are text');
    await page.fill('#new-field input[name=name]', 'Discipline');
    await page.fill('#new-field input[name=description]', 'Who answers it');
    await page.selectOption('#new-field select[name=type]', 'enumeration');
    await page.click('#new-field button[type=submit]');
    await page.waitForSelector('#fields li[data-name=Discipline] button[aria-current=true]');
    [field] = await call('GET', v2('/custom-fields'), 200);
    assert.deepEqual([field.name, field.description, field.type, field.archived], ['Discipline', 'Who answers it', 'enumeration', false]);

    for (const [name, code] of [['Architecture', 'A'], ['Structure', 'S'], ['MEP', '']]) {
      await page.fill('#new-item input[name=name]', name!);
      await page.fill('#new-item input[name=code]', code!);
      await page.click('#new-item button[type=submit]');
      await page.waitForSelector(`#enum-items li[data-name="${name}"]`);
    }
    assert.deepEqual(await itemNames(), ['Architecture:A', 'Structure:S', 'MEP:']);

    // A code for MEP, another for Architecture (one save each row; each save draws the rows again).
    await page.fill('#enum-items li[data-name=MEP] input[aria-label="Item code"]', 'M');
    await page.click('#enum-items li[data-name=MEP] [data-action=save]');
    // The rows are drawn again after each save: the next edit waits for that.
    await page.waitForSelector('#field-detail:not([aria-busy])');
    await until(itemNames, ['Architecture:A', 'Structure:S', 'MEP:M']);
    await page.waitForFunction(() => document.querySelector('#enum-items li[data-name=MEP] input[aria-label="Item code"]')?.value === 'M');
    await page.fill('#enum-items li[data-name=Architecture] input[aria-label="Item code"]', 'AR');
    await page.click('#enum-items li[data-name=Architecture] [data-action=save]');
    await until(itemNames, ['Architecture:AR', 'Structure:S', 'MEP:M']);

    // MEP up (before Structure), then Architecture down (after MEP).
    assert.ok(await page.isDisabled('#enum-items li[data-name=Architecture] [data-action=up]'), 'the first cannot go up');
    await page.click('#enum-items li[data-name=MEP] [data-action=up]');
    await itemRows(['Architecture', 'MEP', 'Structure']);
    await page.click('#enum-items li[data-name=Architecture] [data-action=down]');
    await itemRows(['MEP', 'Architecture', 'Structure']);
    assert.deepEqual(await itemNames(), ['MEP:M', 'Architecture:AR', 'Structure:S']);

    await page.click('#enum-items li[data-name=Structure] [data-action=disable]');
    await page.waitForSelector('#enum-items li.disabled[data-name=Structure] [data-action=restore]');
    assert.deepEqual(await itemNames(), ['MEP:M', 'Architecture:AR', 'Structure:S:disabled']);
    items = Object.fromEntries((await call('GET', v2(`/custom-fields/${field.id}/enumeration-items`), 200)).map((i: Json) => [i.name, i.id]));
  });

  it('shows the API\'s 409 for a duplicate item, and archives a field', async () => {
    await page.fill('#new-item input[name=name]', 'mep');
    await page.click('#new-item button[type=submit]');
    assert.match(await settingsMessage(), /Enumeration item already exists/);
    assert.equal((await itemNames()).length, 3, 'nothing added');

    await page.fill('#new-field input[name=name]', 'Old notes');
    await page.click('#new-field button[type=submit]');
    await page.waitForSelector('#fields li[data-name="Old notes"] button[aria-current=true]');
    await page.click('#field-archive');
    await page.waitForSelector('#fields li[data-name="Old notes"] >> text=archived');
    await page.selectOption('#fields-archived', 'not-archived');
    await page.waitForSelector('#fields li[data-name="Old notes"]', { state: 'detached' });
    assert.deepEqual(await page.$$eval('#fields li', (lis) => lis.map((li) => (li as Json).dataset.name)), ['Discipline']);
    const archived = (await call('GET', v2('/custom-fields?archived=archived'), 200)).map((f: Json) => f.name);
    assert.deepEqual(archived, ['Old notes']);
    await page.click('#settings-close');
    assert.ok(await page.isHidden('#settings'));
  });

  it('puts the field on the board, required with a default', async () => {
    await page.click('#board-fields summary');
    await page.waitForFunction(() => [...document.querySelectorAll('#board-field-choice option')].some((o: Json) => o.textContent.startsWith('Discipline')));
    assert.deepEqual(await page.$$eval('#board-field-choice option', (os) => os.map((o) => o.textContent)), ['Discipline (enumeration)'], 'archived fields are not offered');
    assert.deepEqual(await page.$$eval('#board-field-default option', (os) => os.map((o) => o.textContent)), ['—', 'MEP', 'Architecture'], 'the enabled items, in order');
    // Required without a default: the API's message.
    await page.check('#board-field-required');
    await page.click('#board-field-add-button');
    await page.waitForFunction(() => document.getElementById('board-fields-error').textContent !== '');
    assert.match(await page.textContent('#board-fields-error') ?? '', /default/i);
    await page.selectOption('#board-field-default', items.MEP!);
    await page.click('#board-field-add-button');
    await page.waitForSelector(`#board-fields-list li[data-field="${field.id}"]`);
    const read = await call('GET', v2(`/issues/boards/${board.project_id}`), 200);
    assert.deepEqual(read.customFieldInstances.map((i: Json) => [i.id, i.required, i.defaultValue, i.disabled]), [[field.id, true, items.MEP, false]]);
    // The new-issue form shows it, required, with the default.
    await page.click('#new-topic');
    await page.waitForSelector('#topic-form-fields:not([hidden]) label.required[data-name=Discipline]');
    assert.equal(await page.inputValue(`#topic-form-fields select[data-custom-field="${field.id}"]`), items.MEP);
  });

  it('creates an issue with the default, then changes its value (checked through the BCF API)', async () => {
    await page.fill('#topic-form input[name=title]', 'Which discipline?');
    await page.click('#topic-form button[type=submit]');
    await page.waitForSelector('#topics li[data-number="1"]');
    await page.waitForSelector(`#topic-detail:not([hidden]) #topic-fields dd[data-custom-field="${field.id}"]`);
    assert.equal(await page.textContent(`#topic-fields dd[data-custom-field="${field.id}"]`), 'MEP');
    const [topic] = await call('GET', `/bcf/3.0/projects/${board.project_id}/topics?$filter=${encodeURIComponent('platform_issue_number ge 1')}`, 200);
    topicGuid = topic.guid;
    assert.deepEqual(topic.platform_custom_fields, [{ id: field.id, name: 'Discipline', type: 'enumeration', value: items.MEP }]);

    await page.selectOption(`#topic-custom-values select[data-custom-field="${field.id}"]`, items.Architecture!);
    await page.click('#topic-custom-save');
    await page.waitForFunction((id) => document.querySelector(`#topic-fields dd[data-custom-field="${id}"]`)?.textContent === 'Architecture', field.id, { timeout: 10_000 });
    const changed = await call('GET', `/bcf/3.0/projects/${board.project_id}/topics/${topicGuid}`, 200);
    assert.deepEqual(changed.platform_custom_fields, [{ id: field.id, name: 'Discipline', type: 'enumeration', value: items.Architecture }]);
    assert.equal(changed.title, 'Which discipline?', 'the PUT kept the rest');
  });

  it('creates a library and an item, uploads two revisions and downloads the first', async () => {
    await page.click('#open-settings');
    await page.click('#settings [data-tab=libraries]');
    await page.waitForSelector('#tab-libraries:not([hidden]) #new-library');
    await page.fill('#new-library input[name=name]', 'Drawings');
    await page.click('#new-library button[type=submit]');
    await page.waitForSelector('#libraries li[data-name=Drawings] button[aria-current=true]');
    await page.fill('#new-library-item input[name=name]', 'Ground floor plan');
    await page.click('#new-library-item button[type=submit]');
    await page.waitForSelector('#library-items li[data-name="Ground floor plan"] button[aria-current=true]');

    await page.setInputFiles('#library-upload', { name: 'plan.pdf', mimeType: 'application/pdf', buffer: FIRST });
    await page.waitForSelector('#library-files li[data-revision="1"]');
    await page.setInputFiles('#library-upload', { name: 'plan rev B.pdf', mimeType: 'application/pdf', buffer: SECOND });
    await page.waitForSelector('#library-files li[data-revision="2"]');
    assert.match(await page.textContent('#settings-error') ?? '', /plan rev B\.pdf is revision 2/);
    assert.deepEqual(await page.$$eval('#library-files li', (lis) => lis.map((li) => (li as Json).dataset.revision)), ['2', '1'], 'newest first');

    const [library] = await call('GET', v2('/libraries'), 200);
    [libraryItem] = await call('GET', v2(`/libraries/${library.id}/items`), 200);
    assert.equal(libraryItem.latestRevision, 2);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#library-files li[data-revision="1"] [data-action=download]')]);
    assert.equal(download.suggestedFilename(), 'plan.pdf');
    assert.ok(readFileSync((await download.path())!).equals(FIRST), 'the first revision\'s bytes');
  });

  it('creates a collection following the latest revision, finalizes and shares it; the link works without a token', async () => {
    await page.click('#settings [data-tab=collections]');
    await page.waitForSelector(`#collection-choices input[value="${libraryItem.id}"]`);
    await page.fill('#new-collection input[name=name]', 'Issued for tender');
    await page.check(`#collection-choices input[value="${libraryItem.id}"]`);
    assert.ok(await page.isChecked('#new-collection input[name=follow]'));
    await page.click('#new-collection button[type=submit]');
    await page.waitForSelector('#collections li[data-name="Issued for tender"] button[aria-current=true]');
    await page.waitForSelector(`#collection-items li[data-item="${libraryItem.id}"][data-revision="2"]`);

    await page.click('#collection-finalize');
    await page.waitForFunction(() => document.getElementById('collection-state')?.textContent.startsWith('Finalized'));
    const [collection] = await call('GET', v2('/libraries/collections'), 200);
    assert.deepEqual([collection.finalized, collection.followLatestRevision, collection.visibility], [true, true, 'project-members']);

    // Filters: not finalized shows none; finalized and a search show it.
    await page.selectOption('#collections-finalized', 'false');
    await page.waitForSelector('#collections li.empty');
    await page.selectOption('#collections-finalized', 'true');
    await page.fill('#collections-search', 'tender');
    await page.waitForSelector('#collections li[data-name="Issued for tender"]');
    await page.fill('#collections-search', 'nothing like it');
    await page.waitForSelector('#collections li.empty');
    await page.fill('#collections-search', '');
    await page.waitForSelector('#collections li[data-name="Issued for tender"] button[aria-current=true]');

    await page.click('#collection-share');
    await page.waitForSelector('#share-url');
    const shareUrl = await page.getAttribute('#share-url', 'href');
    const shared = await call('GET', v2(`/libraries/collections/${collection.id}`), 200);
    assert.equal(shareUrl, shared.shareUrl);
    assert.ok(new Date(shared.shareExpiresAt).getTime() > Date.now(), 'the expiry is in the future');

    const answer = await fetch(shareUrl!);
    assert.equal(answer.status, 200);
    const body = await answer.json() as Json;
    assert.equal(body.name, 'Issued for tender');
    assert.deepEqual(body.items.map((i: Json) => [i.name, i.revision, i.filename]), [['Ground floor plan', 2, 'plan rev B.pdf']]);
    const file = await fetch(new URL(body.items[0].url, shareUrl!));
    assert.equal(file.status, 200);
    assert.ok(Buffer.from(await file.arrayBuffer()).equals(SECOND), 'the shared file is the latest revision');
    await page.click('#settings-close');
  });

  it('had no page errors', () => {
    assert.deepEqual(session!.pageErrors, []);
  });
});
