import { assert, assertEqual, assertRejects } from './support/assert';
import { createViewer, removeViewer, record, MODELS } from './support/viewer';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';

type ErrorDetail = { type: string; message: string };

const blobUrl = (data: BlobPart, type = 'application/octet-stream') => URL.createObjectURL(new Blob([data], { type }));

/**
 * Bad input: each case rejects the promise and fires viewer.error with a type and a
 * message that says what was wrong, and the model loaded before stays usable.
 */
describe('bad input keeps the viewer usable', () => {
  let el: BimViewer3d;
  let errors: ErrorDetail[];
  let idsBefore: string[];

  before(async () => {
    el = await createViewer(320, 240);
    await el.loadUrl(MODELS.cabin);
    idsBefore = await el.each();
  });
  after(() => removeViewer(el));
  beforeEach(() => {
    errors = record<ErrorDetail>(el, 'viewer.error');
  });

  async function expectError(call: () => Promise<unknown>, type: string, message: RegExp) {
    const error = (await assertRejects(call(), message)) as Error & { type: string };
    assertEqual(error.type, type, 'error type');
    assert(errors.length >= 1, 'viewer.error fired');
    assertEqual(errors[errors.length - 1].type, type, 'viewer.error type');
    assert(message.test(errors[errors.length - 1].message), `viewer.error message: ${errors[errors.length - 1].message}`);
    // What was loaded before is still there and still answers.
    assertEqual((await el.each()).length, idsBefore.length, 'objects still loaded');
    await el.hide(idsBefore[0]);
    await el.show(idsBefore[0]);
    assertEqual((await el.modelInfo()).length, 1, 'one model still loaded');
  }

  it('an empty file', () => expectError(() => el.loadUrl(blobUrl('')), 'ifc', /empty/));

  it('a file over the size limit, refused from its announced size before the download', async () => {
    // The test server announces 3 GB and sends one line (test/support/oversized-route.mjs).
    await expectError(() => el.loadUrl('/test-files/oversized.ifc'), 'ifc', /oversized\.ifc is too large \(3\.00 GB\): the viewer loads files of up to 2 GB/);
    await expectError(() => el.loadModel('/test-files/oversized.ifc', { modelId: 'oversized' }), 'ifc', /too large \(3\.00 GB\)/);
  });

  it('random bytes', () => {
    const bytes = new Uint8Array(4096);
    crypto.getRandomValues(bytes);
    bytes[0] = 0x89; // not '{' and not 'I': neither a manifest nor IFC
    return expectError(() => el.loadUrl(blobUrl(bytes)), 'ifc', /neither IFC .* nor a JSON manifest/);
  });

  it('random bytes behind an IFC header', async () => {
    const bytes = new Uint8Array(4096);
    crypto.getRandomValues(bytes);
    const data = new Blob(['ISO-10303-21;\n', bytes]);
    await expectError(() => el.loadModel(URL.createObjectURL(data), { modelId: 'noise' }), 'ifc', /truncated|IFC/);
  });

  it('a truncated IFC file', async () => {
    const text = await (await fetch(MODELS.house)).text();
    await expectError(() => el.loadModel(blobUrl(text.slice(0, text.length / 2)), { modelId: 'half' }), 'ifc', /truncated/);
  });

  it('a URL that answers 404', () => expectError(() => el.loadUrl('/samples/no-such-model.ifc'), 'network', /404/));

  it('an expired token (401 with the server\'s message)', async () => {
    const response = await fetch('/v2/projects/demo/viewer3d/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ expiresIn: -1 }) });
    const { url } = await response.json();
    await expectError(() => el.loadUrl(url), 'network', /401.*(expired|unknown)/i);
  });

  it('JSON that is not a manifest', () => expectError(() => el.loadUrl(blobUrl('{"hello": "world"}', 'application/json')), 'manifest', /no "models" array/));

  it('a manifest whose model offers no readable format', () =>
    expectError(() => el.loadUrl(blobUrl(JSON.stringify({ models: [{ id: 'x', formats: [{ type: 'text/plain', url: 'x.txt' }] }] }))), 'manifest', /no format/));

  it('a manifest pointing at a missing file', () =>
    expectError(() => el.loadUrl(blobUrl(JSON.stringify({ models: [{ id: 'gone', formats: [{ type: 'application/x-step', url: `${location.origin}/samples/gone.ifc` }] }] }))), 'network', /404/));

  it('wrong argument types', async () => {
    await expectError(() => el.hide({} as never), 'argument', /hide: object ids must be/);
    await expectError(() => el.color('red', idsBefore[0]), 'argument', /colour must be/);
    await expectError(() => el.viewpoint('sideways' as never), 'argument', /direction must be one of/);
    await expectError(() => el.viewpoint({ location: { x: 'a' } } as never), 'argument', /location must be/);
    await expectError(() => el.loadUrl(42 as never), 'argument', /url must be a non-empty string/);
    await expectError(() => el.lookAtBoundingBox({ min: 1 } as never), 'argument', /expected a box/);
    await expectError(() => el.each('not a function' as never), 'argument', /callback/);
    await expectError(() => el.unloadModel('nope'), 'argument', /No model with id "nope"/);
    await expectError(() => el.loadModel(MODELS.cabin, { modelType: 'mesh' as never }), 'argument', /not supported/);
    // An IFC file loaded as a point cloud says what it is not.
    await expectError(() => el.loadModel(MODELS.cabin, { modelType: 'point-cloud' }), 'pointcloud', /Not a point cloud file/);
  });

  it('the same model id twice', () => expectError(() => el.loadModel(MODELS.cabin, { modelId: 'cabin' }), 'argument', /already loaded/));
});
