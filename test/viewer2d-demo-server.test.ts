// The demo backend's 2D viewer tokens (demo/server/token-routes.ts): POST
// .../viewer2d/token gives a geometry URL answering the same manifest as the 3D data URL;
// tokens live 60 minutes; an expired token is a 401 and a viewer2d.loadfail.
/* eslint-disable @typescript-eslint/no-explicit-any */
import type { BimViewer2d } from '../src/elements/bim-viewer-2d';
import { assert, assertDeepEqual, assertEqual, assertRejects } from './support/assert';
import { createViewer2d, removeViewer2d } from './support/viewer2d';
import { SAMPLES, objectIdOf, truthOf } from './support/samples';
import { assertArrowDrives3dCamera, onPlanPage, until3dLoaded } from './support/demo-page';

async function postToken(project: string, body?: unknown, kind = 'viewer2d'): Promise<Response> {
  return fetch(`/v2/projects/${encodeURIComponent(project)}/${kind}/token`, {
    method: 'POST',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function tokenUrl(project: string, body?: unknown): Promise<string> {
  const res = await postToken(project, body);
  assertEqual(res.status, 201);
  return ((await res.json()) as { url: string }).url;
}

async function errorOf(res: Response): Promise<{ code: number; name: string; message: string }> {
  assert(res.headers.get('content-type')?.startsWith('application/json'), 'a JSON error body');
  return ((await res.json()) as { error: { code: number; name: string; message: string } }).error;
}

describe('demo backend: 2D viewer tokens', () => {
  it('POST .../viewer2d/token answers {url} to .../viewer2d/geometry?token=, expiring in 60 minutes', async () => {
    const before = Date.now();
    const res = await postToken('demo');
    assertEqual(res.status, 201);
    const body = (await res.json()) as { url: string; expiresAt: string };
    const url = new URL(body.url);
    assertEqual(url.origin, location.origin);
    assertEqual(url.pathname, '/v2/projects/demo/viewer2d/geometry');
    assert(/^[0-9a-f]{32}$/.test(url.searchParams.get('token') ?? ''), 'a 32 hex digit token');
    const lifetime = Date.parse(body.expiresAt) - before;
    assert(lifetime > 59 * 60_000 && lifetime <= 60 * 60_000 + 5_000, `60 minutes (${lifetime} ms)`);
    const longer = (await (await postToken('demo', { expiresIn: 24 * 3600 })).json()) as { expiresAt: string };
    assert(Date.parse(longer.expiresAt) - Date.now() <= 60 * 60_000 + 5_000, 'never longer than 60 minutes');
  });

  it('the geometry URL answers the same manifest as the 3D data URL', async () => {
    const manifest2d = await (await fetch(await tokenUrl('all-samples'))).json();
    const res3d = await postToken('all-samples', undefined, 'viewer3d');
    const manifest3d = await (await fetch(((await res3d.json()) as { url: string }).url)).json();
    assertDeepEqual(manifest2d, manifest3d);
    // The samples lead the catalogue: objectIdBase = their place in it x 2^32.
    assertDeepEqual(manifest2d.models.map((m: any) => [m.id, m.objectIdBase]), [
      ['house', '0'], ['cabin', '4294967296'], ['house-ifc2x3', '8589934592'], ['house-ifc4x3', '12884901888'], ['house-georeferenced', '17179869184'],
    ]);
  });

  it('expired, unknown and 3D tokens are 401; unknown projects 404; bad bodies 400', async () => {
    const expired = await tokenUrl('demo', { expiresIn: -1 });
    const res = await fetch(expired);
    assertEqual(res.status, 401);
    assertEqual((await errorOf(res)).name, 'UNAUTHORIZED');
    assertEqual((await fetch('/v2/projects/demo/viewer2d/geometry?token=0123456789abcdef0123456789abcdef')).status, 401);
    const url3d = ((await (await postToken('demo', undefined, 'viewer3d')).json()) as { url: string }).url;
    const token3d = new URL(url3d).searchParams.get('token');
    assertEqual((await fetch(`/v2/projects/demo/viewer2d/geometry?token=${token3d}`)).status, 401, 'a 3D token is no 2D token');
    const missing = await postToken('no-such-project');
    assertEqual(missing.status, 404);
    assertEqual((await errorOf(missing)).message, 'Project (no-such-project) not found');
    assertEqual((await postToken('demo', { models: 'house' })).status, 400);
    assertEqual((await fetch('/v2/projects/demo/viewer2d/token')).status, 405);
  });
});

describe('<bim-viewer-2d> with 2D token URLs', function () {
  let el: BimViewer2d;
  afterEach(() => removeViewer2d(el));

  it('loads a project through its token URL, with the manifest\'s model id and objectIdBase', async () => {
    const truth = await truthOf(SAMPLES.cabin);
    el = await createViewer2d(400, 300);
    const loads: string[] = [];
    el.addEventListener('viewer2d.load', (e) => loads.push(e.detail.modelId));
    const ids = await el.loadUrl(await tokenUrl('cabin'));
    assertDeepEqual(ids, ['cabin']);
    assertDeepEqual(loads, ['cabin']);
    const storeys = el.getStoreys();
    assertDeepEqual(storeys.map((s) => s.name), truth.storeys.map((s) => s.name));
    // The cabin is the second model of the catalogue: objectIdBase 2^32.
    assertEqual(storeys[0].id, objectIdOf(truth.storeys[0].id, '4294967296'));
    assertEqual(el.getSpaces()[0].id, objectIdOf(truth.spaces[0].id, '4294967296'));
  });

  it('an expired token: viewer2d.loadstart, then viewer2d.loadfail saying 401; the promise rejects', async () => {
    el = await createViewer2d(400, 300);
    const seen: string[] = [];
    const fails: Array<{ modelId: string; message: string }> = [];
    el.addEventListener('viewer2d.loadstart', () => seen.push('loadstart'));
    el.addEventListener('viewer2d.loadfail', (e) => { seen.push('loadfail'); fails.push(e.detail); });
    el.addEventListener('viewer2d.load', () => seen.push('load'));
    await assertRejects(el.loadUrl(await tokenUrl('demo', { expiresIn: -1 }), { modelId: 'late' }), /401/);
    assertDeepEqual(seen, ['loadstart', 'loadfail']);
    assertEqual(fails[0].modelId, 'late');
    assert(/401/.test(fails[0].message) && /expired/i.test(fails[0].message), fails[0].message);
  });
});

describe('demo: the 2D + 3D page', function () {
  it('/demo/plan.html loads the house in both viewers, picks the ground floor, and the arrow drives the 3D camera', async () => {
    const truth = await truthOf(SAMPLES.house);
    await onPlanPage('demo', async (page) => {
      assertDeepEqual(Array.from(page.picker.options).map((o) => o.textContent), truth.storeys.map((s) => `${s.name} (${s.elevation.toFixed(2)} m)`));
      await until3dLoaded(page);
      assertEqual(page.viewer2d.getStoreys({ visible: true }).map((s) => s.name).join(), 'Ground floor', 'the lowest storey with spaces');
      await assertArrowDrives3dCamera(page);
    });
  });
});
