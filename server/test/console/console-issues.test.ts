/**
 * The console's issues panel (demo/console/issues/) in real Chromium against the real
 * server (BCF API 3.0): sign in through the platform's sign-in page, open the generated
 * house (imported through the v1 API), create an issue board, refuse an issue without a
 * title with the API's message, create an issue from the 3D view (its viewpoint with a
 * snapshot and components read back through the API), filter the list by label and
 * status, comment, change the status (the PUT keeps the other fields), show a viewpoint
 * again from its thumbnail (the 3D camera comes back), find the marker on the 2D
 * plan (following the storey shown; a click opens the issue), export the board as a BCF
 * file from the console and import it into another board (its viewpoints come back
 * exactly) and into a third from the console, and see a broken file's import error.
 *
 *   node scripts/server-tests.mjs server/test/console/console-issues.test.ts
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright';
import { sampleFile } from '../../../samples/files.js';
import { ADMIN, api, type TestServer } from '../harness.js';
import { signInThroughPage, startConsoleSession, stopConsoleSession, storedTokens, type ConsoleSession } from './console-support.js';

// The functions given to page.evaluate run in the page, but this file is compiled with node's types (server/tsconfig.json).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any, window: any;
type Json = any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const LOAD_TIMEOUT = Number(process.env.CONSOLE_TEST_TIMEOUT ?? 180_000);
type Camera = { camera_view_point: Record<'x' | 'y' | 'z', number>; camera_direction: Record<'x' | 'y' | 'z', number>; camera_up_vector: Record<'x' | 'y' | 'z', number>; field_of_view?: number };

/** How far apart two cameras are: the largest difference of their positions (m), directions and up vectors. */
function cameraDistance(a: Camera, b: Camera): number {
  let worst = Math.abs((a.field_of_view ?? 0) - (b.field_of_view ?? 0)) / 100;
  for (const key of ['camera_view_point', 'camera_direction', 'camera_up_vector'] as const) {
    for (const axis of ['x', 'y', 'z'] as const) worst = Math.max(worst, Math.abs(a[key][axis] - b[key][axis]));
  }
  return worst;
}

/** A JSON value with every empty array (and the key holding it) left out. */
function withoutEmptyLists(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutEmptyLists);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => !(Array.isArray(v) && v.length === 0)).map(([k, v]) => [k, withoutEmptyLists(v)]));
}

describe('the console\'s issues panel', { timeout: 15 * 60_000 }, () => {
  let session: ConsoleSession | undefined;
  let server: TestServer;
  let page: Page;
  let pageErrors: string[];
  const requested: string[] = [];
  let project: { id: string; name: string };
  let board: { project_id: string; name: string };
  let topic: Json;
  let viewpoint: Json;

  before(async () => {
    session = await startConsoleSession({ width: 1500, height: 900 }, true);
    ({ server, page, pageErrors } = session);
    page.on('request', (request) => requested.push(request.url()));
  });

  after(() => stopConsoleSession(session));

  /** A BCF API call (path under /bcf) with the console's own access token; JSON answers parsed, the status checked. */
  async function bcf(method: string, path: string, status: number, body?: unknown, contentType = 'application/json'): Promise<Json> {
    const token = (await storedTokens(page))?.accessToken;
    const raw = body instanceof Uint8Array;
    const answer = await fetch(`${server.url}/bcf${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': raw ? contentType : 'application/json' }) },
      ...(body === undefined ? {} : { body: raw ? body : JSON.stringify(body) }),
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    assert.equal(answer.status, status, `${method} ${path}: ${answer.status} ${bytes.toString('utf8').slice(0, 300)}`);
    return (answer.headers.get('content-type') ?? '').includes('json') ? JSON.parse(bytes.toString('utf8')) : bytes;
  }

  const viewer3dCamera = () => page.evaluate(async () => {
    const viewpoint = await document.getElementById('viewer3d').getBcfViewpoint();
    return viewpoint.perspective_camera ?? viewpoint.orthogonal_camera;
  }) as Promise<Camera>;

  /** The rows of the issue list: number, title, status, assignee. */
  const rows = () => page.$$eval('#topics li[data-guid]', (items) => items.map((li) => ['number', 'title', 'status', 'assignee'].map((c) => li.querySelector(`.${c}`)?.textContent ?? '')));

  /** Sets a filter and waits for the list to answer it. */
  async function filterBy(which: string, value: string, expected: string[]) {
    await page.selectOption(`#filter-${which}`, value);
    await page.waitForFunction((numbers) => {
      const shown = [...document.querySelectorAll('#topics li[data-guid]')].map((li: { dataset: { number: string } }) => li.dataset.number);
      return JSON.stringify(shown) === JSON.stringify(numbers);
    }, expected, { timeout: 10_000 }).catch(async () => assert.fail(`filter ${which}=${value}: the list shows ${JSON.stringify(await rows())}, expected issues ${expected.join(', ')}`));
  }

  it('signs in and opens the generated house beside an empty issues panel', async () => {
    await signInThroughPage(page, server.url);
    const token = (await storedTokens(page))!.accessToken;
    const v1 = api(server.url, token);
    project = (await v1.post('/projects/new', { name: 'Issues <i>test</i>' })).json;
    const model = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'House' })).json;
    const upload = await v1.upload(model.id, 'house.ifc', readFileSync(sampleFile('house').ifc));
    assert.equal(upload.status, 200, JSON.stringify(upload.json));
    assert.equal((await v1.waitForImport(upload.json.token)).json.result, 'success');

    assert.ok(await page.isVisible('#issues-closed'), 'the panel asks for a revision first');
    await page.click('#reload-projects');
    await page.click(`#projects li[data-id="${project.id}"] button`);
    await page.click(`#models li[data-id="${model.id}"] button`);
    await page.click('#revisions li[data-revision="1"] button');
    await page.waitForFunction(() => ['view3d', 'view2d'].every((v) => document.getElementById(v).dataset.state === 'loaded'), undefined, { timeout: LOAD_TIMEOUT });
    await page.waitForSelector('#no-boards:not([hidden])');
    assert.equal(await page.textContent('#issues-project'), 'Issues <i>test</i>', 'the project\'s name is text');
    assert.ok(await page.isHidden('#issues-list-panel'), 'no list without a board');
    assert.ok(await page.isHidden('#issues-status'), await page.textContent('#issues-status') ?? '');
  });

  it('creates an issue board for the project', async () => {
    await page.fill('#new-board input[name=name]', 'Coordination');
    await page.press('#new-board input[name=name]', 'Enter');
    await page.waitForSelector('#issues-list-panel:not([hidden])');
    const boards = await bcf('GET', `/3.0/projects?platform_project_id=${project.id}`, 200);
    assert.deepEqual(boards.map((b: Json) => b.name), ['Coordination']);
    board = boards[0];
    assert.equal(await page.inputValue('#boards'), board.project_id);
    // The panel shows before the board's topics arrive: wait for their (empty) list.
    await page.waitForSelector('#topics li.empty');
    assert.match(await page.textContent('#topics') ?? '', /No issues match/);
    // The filters and the form offer the board's values.
    const labels = await page.$$eval('#filter-label option', (options) => options.map((o) => o.textContent));
    assert.deepEqual(labels, ['any label', 'Architecture', 'Structure', 'MEP', 'Coordination']);
    const statuses = await page.$$eval('#topic-form select[name=topic_status] option', (options) => options.map((o) => o.textContent));
    assert.deepEqual(statuses, ['Open', 'In Progress', 'Resolved', 'Closed']);
  });

  it('shows the API\'s message when an issue cannot be created', async () => {
    await page.click('#new-topic');
    await page.fill('#topic-form input[name=title]', '   ');
    await page.click('#topic-form button[type=submit]');
    await page.waitForFunction(() => document.getElementById('topic-form-error').textContent !== '');
    assert.match(await page.textContent('#topic-form-error') ?? '', /`title` is required/);
    assert.equal((await bcf('GET', `/3.0/projects/${board.project_id}/topics?$filter=${encodeURIComponent('platform_issue_number ge 1')}`, 200)).length, 0, 'nothing was created');
  });

  it('creates an issue from the current 3D view, its viewpoint with a snapshot and components', async () => {
    // An object selected in 3D (a click in the middle of the view) goes into the viewpoint's selection.
    const box = (await page.locator('#viewer3d').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(async () => (await document.getElementById('viewer3d').eachSelected()).length > 0, undefined, { timeout: 30_000 });
    const cameraThen = await viewer3dCamera();

    await page.fill('#topic-form input[name=title]', 'Duct <b>through</b> the beam');
    await page.selectOption('#topic-form select[name=topic_type]', 'Clash');
    await page.selectOption('#topic-form select[name=topic_status]', 'Open');
    await page.selectOption('#topic-form select[name=assigned_to]', ADMIN.email);
    await page.check('#topic-form-labels input[value=MEP]');
    await page.check('#topic-form-labels input[value=Structure]');
    await page.fill('#topic-form textarea[name=description]', 'Found while walking the ground floor.');
    await page.click('#topic-form button[type=submit]');
    await page.waitForSelector('#topics li[data-number="1"]');
    await page.waitForSelector('#topic-detail:not([hidden]) #topic-viewpoints [data-viewpoint]');
    // The form closes once the new issue is open beside it (topic-form.ts): wait for it, a loaded machine may be between the two.
    await page.waitForSelector('#topic-form', { state: 'hidden', timeout: 10_000 });
    assert.ok(await page.isHidden('#topic-form'), 'the form closes');

    const topics = await bcf('GET', `/3.0/projects/${board.project_id}/topics?$filter=${encodeURIComponent('platform_issue_number ge 1')}`, 200);
    assert.equal(topics.length, 1);
    topic = topics[0];
    assert.equal(topic.title, 'Duct <b>through</b> the beam');
    assert.equal(topic.topic_type, 'Clash');
    assert.equal(topic.topic_status, 'Open');
    assert.equal(topic.assigned_to, ADMIN.email);
    assert.deepEqual([...topic.labels].sort(), ['MEP', 'Structure']);
    assert.equal(topic.description, 'Found while walking the ground floor.');
    assert.equal(await page.locator('#topics b').count(), 0, 'a title is text, never markup');

    const viewpoints = await bcf('GET', `/3.0/projects/${board.project_id}/topics/${topic.guid}/viewpoints`, 200);
    assert.equal(viewpoints.length, 1);
    viewpoint = viewpoints[0];
    assert.equal(viewpoint.snapshot?.snapshot_type, 'png');
    const png = await bcf('GET', `/3.0/projects/${board.project_id}/topics/${topic.guid}/viewpoints/${viewpoint.guid}/snapshot`, 200) as Buffer;
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.ok(png.length > 1000, `a real picture (${png.length} bytes)`);
    assert.ok(viewpoint.components?.selection?.length > 0, JSON.stringify(viewpoint.components?.selection));
    assert.match(viewpoint.components.selection[0].ifc_guid, /^[0-9A-Za-z_$]{22}$/);
    assert.ok(viewpoint.components.visibility, 'the visibility is stored');
    assert.ok(cameraDistance(viewpoint.perspective_camera, cameraThen) < 1e-6, 'the camera of the view when the form was sent');
  });

  it('lists issues with their number, title, status and assignee, and filters them', async () => {
    // A second issue, created elsewhere (the API), to filter against.
    await bcf('POST', `/3.0/projects/${board.project_id}/topics`, 201, { title: 'Door too narrow', topic_status: 'In Progress', labels: ['Architecture'] });
    await page.selectOption('#filter-status', 'In Progress'); // a filter change lists again
    await filterBy('status', '', ['1', '2']);
    assert.deepEqual(await rows(), [['#1', 'Duct <b>through</b> the beam', 'Open', ADMIN.email], ['#2', 'Door too narrow', 'In Progress', '']]);
    await filterBy('label', 'MEP', ['1']);
    await filterBy('label', 'Architecture', ['2']);
    await filterBy('status', 'Open', []);
    assert.match(await page.textContent('#topics') ?? '', /No issues match/);
    await filterBy('label', '', ['1']);
    await filterBy('status', 'In Progress', ['2']);
    await filterBy('assignee', ADMIN.email, []);
    await filterBy('status', '', ['1']);
    await filterBy('assignee', '', ['1', '2']);
    const filters = requested.map((u) => new URL(u).searchParams.get('$filter')).filter(Boolean);
    assert.ok(filters.includes("labels/any(l: l eq 'MEP')"), filters.join('\n'));
    assert.ok(filters.includes("topic_status eq 'In Progress' and assigned_to eq 'admin@example.com'"), filters.join('\n'));
    assert.ok(filters.includes('platform_issue_number ge 1'), filters.join('\n'));
  });

  it('adds a comment to an issue', async () => {
    await page.click('#topics li[data-number="1"] button');
    await page.waitForFunction(() => /^#1 /.test(document.getElementById('topic-title').textContent));
    await page.fill('#comment-form textarea', 'Checked on site: <script>not markup</script>');
    await page.click('#comment-form button[type=submit]');
    await page.waitForSelector('#topic-comments li[data-comment]');
    const comments = await bcf('GET', `/3.0/projects/${board.project_id}/topics/${topic.guid}/comments`, 200);
    assert.equal(comments.length, 1);
    assert.equal(comments[0].comment, 'Checked on site: <script>not markup</script>');
    assert.equal(comments[0].viewpoint_guid ?? null, null, 'not linked: no view was shown');
    assert.equal(await page.textContent('#topic-comments li[data-comment] p'), 'Checked on site: <script>not markup</script>');
  });

  it('changes the status, keeping the other fields', async () => {
    await page.selectOption('#topic-status', 'Resolved');
    await page.click('#topic-status-save');
    await page.waitForFunction(() => document.querySelector('#topics li[data-number="1"] .status')?.textContent === 'Resolved', undefined, { timeout: 10_000 });
    const after = await bcf('GET', `/3.0/projects/${board.project_id}/topics/${topic.guid}`, 200);
    assert.equal(after.topic_status, 'Resolved');
    for (const field of ['title', 'topic_type', 'assigned_to', 'description'] as const) assert.equal(after[field], topic[field], field);
    assert.deepEqual([...after.labels].sort(), [...topic.labels].sort());
    assert.equal(await page.textContent('#topic-fields dd[data-field=Status]'), 'Resolved');
    const events = await bcf('GET', `/3.0/projects/${board.project_id}/topics/${topic.guid}/events`, 200);
    assert.deepEqual(events.at(-1).actions, [{ type: 'status_updated', value: 'Resolved' }], 'only the status changed');
  });

  it('shows the viewpoint again from its thumbnail: the 3D camera comes back', async () => {
    // The thumbnail is the snapshot, read with the token into a blob URL.
    await page.waitForFunction(() => {
      const image = document.querySelector('#topic-viewpoints [data-viewpoint] img');
      return image && image.complete && image.naturalWidth > 0;
    }, undefined, { timeout: 10_000 });
    assert.match(await page.getAttribute('#topic-viewpoints img', 'src') ?? '', /^blob:/);
    const token = (await storedTokens(page))!.accessToken;
    assert.ok(!requested.some((u) => u.includes(token) || /access_token=/.test(u)), 'no token in any URL');
    assert.ok(requested.some((u) => u.endsWith(`/viewpoints/${viewpoint.guid}/snapshot`)));

    // Away: orbit with the mouse and deselect.
    const box = (await page.locator('#viewer3d').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.3, { steps: 8 });
    await page.mouse.up();
    await page.evaluate(() => document.getElementById('viewer3d').deselectAll());
    const away = await viewer3dCamera();
    assert.ok(cameraDistance(away, viewpoint.perspective_camera) > 0.1, `the camera moved (${cameraDistance(away, viewpoint.perspective_camera)})`);

    await page.click(`#topic-viewpoints [data-viewpoint="${viewpoint.guid}"]`);
    await page.waitForSelector(`#topic-viewpoints [data-viewpoint="${viewpoint.guid}"][aria-current=true]`);
    const back = await viewer3dCamera();
    assert.ok(cameraDistance(back, viewpoint.perspective_camera) < 1e-3, `back: ${JSON.stringify(back)} against ${JSON.stringify(viewpoint.perspective_camera)}`);
    const selected = await page.evaluate(async () => (await document.getElementById('viewer3d').getBcfViewpoint()).components?.selection ?? []);
    assert.deepEqual(selected.map((c: Json) => c.ifc_guid).sort(), viewpoint.components.selection.map((c: Json) => c.ifc_guid).sort(), 'the selection too');

    // A comment on the view shown is linked to it.
    await page.fill('#comment-form textarea', 'Seen from here');
    await page.check('#comment-form input[name=link]');
    await page.click('#comment-form button[type=submit]');
    await page.waitForFunction(() => document.querySelectorAll('#topic-comments li[data-comment]').length === 2);
    const comments = await bcf('GET', `/3.0/projects/${board.project_id}/topics/${topic.guid}/comments`, 200);
    assert.equal(comments.find((c: Json) => c.comment === 'Seen from here')?.viewpoint_guid, viewpoint.guid);
  });

  it('marks the issue on the 2D plan, on the storey its viewpoint looks at', async () => {
    const markerId = `issue-${topic.guid}`;
    const markers = () => page.evaluate(() => document.getElementById('viewer2d').getMarkers()) as Promise<{ id: string; x: number; y: number; text?: string }[]>;
    // Opening the issue showed its storey on the plan, named in its fields.
    const storeyName = await page.textContent('#topic-fields dd[data-field="On the plan"]');
    assert.ok(storeyName && storeyName !== '—', `the issue has a storey (${storeyName})`);
    const shownStorey = await page.inputValue('#storeys');
    const storeys = await page.evaluate(() => document.getElementById('viewer2d').getStoreys()) as { id: string; name: string }[];
    assert.equal(storeys.find((s) => s.id === shownStorey)?.name, storeyName, 'the plan shows the issue\'s storey');
    await page.waitForFunction((id) => document.getElementById('viewer2d').getMarkers().some((m: { id: string }) => m.id === id), markerId, { timeout: 10_000 });
    const marker = (await markers()).find((m) => m.id === markerId)!;
    assert.equal(marker.text, '#1');
    const model = await page.evaluate(() => document.getElementById('viewer3d').boundingBox(null));
    assert.ok(marker.x >= model.min.x && marker.x <= model.max.x && marker.y >= model.min.y && marker.y <= model.max.y, `${JSON.stringify(marker)} inside the model ${JSON.stringify(model)}`);
    assert.ok(!(await markers()).some((m) => m.text === '#2'), 'issue 2 has no viewpoint: no marker');

    // Another storey: the marker goes; back: it comes again.
    const other = storeys.find((s) => s.id !== shownStorey)!;
    await page.selectOption('#storeys', other.id);
    await page.waitForFunction((id) => !document.getElementById('viewer2d').getMarkers().some((m: { id: string }) => m.id === id), markerId);
    await page.selectOption('#storeys', shownStorey);
    await page.waitForFunction((id) => document.getElementById('viewer2d').getMarkers().some((m: { id: string }) => m.id === id), markerId);

    // A click on the marker opens its issue.
    await page.click('#topic-detail-close');
    assert.ok(await page.isHidden('#topic-detail'));
    await page.locator('#viewer2d g.marker', { hasText: '#1' }).locator('circle').click();
    await page.waitForSelector('#topic-detail:not([hidden])');
    assert.match(await page.textContent('#topic-title') ?? '', /^#1 Duct/);
  });

  it('exports the board as a BCF file that another board imports with its viewpoints exactly', async () => {
    await page.selectOption('#bcf-export-version', '3.0');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#bcf-export')]);
    assert.equal(download.suggestedFilename(), 'Coordination.bcf');
    const file = readFileSync((await download.path())!);
    assert.equal(file.subarray(0, 2).toString('latin1'), 'PK', 'a zip');
    await page.waitForSelector('#bcf-files-status[data-result=success]');
    assert.ok(requested.some((u) => u.endsWith(`/projects/${board.project_id}/export?version=3.0`)));

    // Another tool (here: another board, through the API) reads it and answers the same viewpoints.
    const other = await bcf('POST', '/2.0/projects', 201, { name: 'Elsewhere', platform_project_id: project.id });
    const summary = await bcf('POST', `/3.0/projects/${other.project_id}/import`, 201, new Uint8Array(file), 'application/octet-stream');
    assert.equal(summary.topics, 2);
    assert.equal(summary.viewpoints, 1);
    assert.equal(summary.comments, 2);
    const original = await bcf('GET', `/3.0/projects/${board.project_id}/topics/${topic.guid}/viewpoints`, 200);
    const imported = await bcf('GET', `/3.0/projects/${other.project_id}/topics/${topic.guid}/viewpoints`, 200);
    // Exactly, but for empty lists: BCF-XML writes no element for an empty list of clipping
    // planes or colourings, so the viewer's `clipping_planes: []` comes back absent (same meaning).
    assert.deepEqual(withoutEmptyLists(imported), withoutEmptyLists(original), 'the viewpoints came back exactly');
    assert.ok(imported[0].perspective_camera && imported[0].components.selection.length > 0, JSON.stringify(imported));
    const snapshotPath = (id: string) => `/3.0/projects/${id}/topics/${topic.guid}/viewpoints/${viewpoint.guid}/snapshot`;
    assert.deepEqual(await bcf('GET', snapshotPath(other.project_id), 200), await bcf('GET', snapshotPath(board.project_id), 200), 'the snapshot byte for byte');
    const importedTopic = await bcf('GET', `/3.0/projects/${other.project_id}/topics/${topic.guid}`, 200);
    assert.equal(importedTopic.topic_status, 'Resolved');
    assert.equal(importedTopic.title, topic.title);

    // BCF 2.1 when chosen: a file of that version.
    await page.selectOption('#bcf-export-version', '2.1');
    const [download21] = await Promise.all([page.waitForEvent('download'), page.click('#bcf-export')]);
    const entries = unzipSync(new Uint8Array(readFileSync((await download21.path())!)));
    assert.match(strFromU8(entries['bcf.version']), /VersionId="2\.1"/);
    assert.ok(Object.keys(entries).some((name) => name.startsWith(`${topic.guid}/`) && name.endsWith('.bcfv')), Object.keys(entries).join(', '));
    assert.ok(requested.some((u) => u.endsWith(`/projects/${board.project_id}/export?version=2.1`)));

    // The same file imported from the console into a third board.
    await page.fill('#new-board input[name=name]', 'From a file');
    await page.press('#new-board input[name=name]', 'Enter');
    await page.waitForFunction(() => document.querySelector('#boards option:checked')?.textContent === 'From a file');
    await page.waitForSelector('#topics li.empty');
    await page.setInputFiles('#bcf-import', { name: 'Coordination.bcf', mimeType: 'application/octet-stream', buffer: file });
    await page.waitForSelector('#bcf-files-status[data-result=success]:text("Imported")');
    assert.match(await page.textContent('#bcf-files-status') ?? '', /^Imported 2 issues, 2 comments, 1 viewpoint, 0 documents\./);
    await page.waitForSelector('#topics li[data-number="2"]');
    assert.deepEqual((await rows()).map((r) => r[1]).sort(), ['Door too narrow', 'Duct <b>through</b> the beam']);
  });

  it('shows the error of a broken BCF file imported from the console', async () => {
    await page.setInputFiles('#bcf-import', { name: 'broken.bcf', mimeType: 'application/octet-stream', buffer: Buffer.from('this is not a zip') });
    await page.waitForSelector('#bcf-files-status[data-result=error]');
    const text = await page.textContent('#bcf-files-status') ?? '';
    assert.match(text, /^broken\.bcf was not imported: Not imported: \S/, text);
    assert.equal((await rows()).length, 2, 'nothing more came in');
    assert.ok(await page.isHidden('#alert'), await page.textContent('#alert-text') ?? '');
    assert.deepEqual(pageErrors, [], 'no uncaught errors on the page');
  });
});
