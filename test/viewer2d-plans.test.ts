// <bim-viewer-2d> on processed plans (formats/plans.ts): the demo backend converts each
// sample with `npm run scene -- --plans` (/scenes/samples/<name>.plans), and the viewer
// must draw and answer exactly what it draws and answers when it extracts the plans from
// the IFC itself, without its plan worker.
import type { BimViewer2d } from '../src/elements/bim-viewer-2d';
import { assert, assertDeepEqual, assertEqual } from './support/assert';
import { compareScreenshot } from './support/screenshot';
import { PLAN_MODELS, createViewer2d, frames, removeViewer2d } from './support/viewer2d';
import { plansOf } from './support/samples';

const absolute = (url: string) => new URL(url, location.href).href;

/** Every storey drawn in turn, its picture, and what the viewer answers about storeys and spaces. */
async function describe2d(el: BimViewer2d) {
  const storeys = el.getStoreys();
  const pictures: string[] = [];
  for (const storey of storeys) {
    await el.showStorey(storey.id);
    await el.hideViewpoint();
    await frames();
    pictures.push(await el.screenshot());
  }
  return { storeys, spaces: el.getSpaces(), pictures };
}

describe('2D plans from processed files', () => {
  let el: BimViewer2d | undefined;
  afterEach(async () => {
    await removeViewer2d(el);
    el = undefined;
  });

  for (const [name, url] of [['house', PLAN_MODELS.house], ['house-georeferenced', PLAN_MODELS.houseGeoreferenced], ['office-2k', PLAN_MODELS.office2k]] as const) {
    it(`draws the plans of every storey as extracted from the IFC, and answers the same (${name})`, async () => {
      el = await createViewer2d(560, 400);
      await el.loadUrl(url, { modelId: 'm' });
      const fromIfc = await describe2d(el);
      await removeViewer2d(el);
      el = await createViewer2d(560, 400);
      await el.loadUrl(plansOf(url), { modelId: 'm' });
      assertEqual((el as unknown as { plans?: unknown }).plans, undefined, 'no plan worker (no web-ifc) was started');
      const fromPlans = await describe2d(el);
      assertDeepEqual(fromPlans.storeys, fromIfc.storeys, 'the storeys');
      assertDeepEqual(fromPlans.spaces, fromIfc.spaces, 'the spaces');
      assert(fromIfc.pictures.length >= 1, 'storeys drawn');
      for (const [i, picture] of fromPlans.pictures.entries()) {
        const result = await compareScreenshot(`viewer2d/plans-vs-ifc-${name}-${i}`, picture, { expectedDataUrl: fromIfc.pictures[i], tolerance: 0 });
        assert(result.ok, result.message ?? '');
      }
    });
  }

  it('loads a manifest\'s plans with its objectIdBase', async () => {
    el = await createViewer2d(560, 400);
    const manifest = { models: [{ id: 'm', name: 'House', objectIdBase: '8589934592', formats: [{ type: 'application/vnd.platform.plans', url: absolute(plansOf(PLAN_MODELS.house)) }] }] };
    await el.loadUrl(URL.createObjectURL(new Blob([JSON.stringify(manifest)], { type: 'application/json' })));
    const spaces = el.getSpaces();
    assert(spaces.length > 0 && spaces.every((s) => BigInt(s.id) > 8589934592n), `space ids carry the base: ${spaces.slice(0, 2).map((s) => s.id)}`);
  });

  it('a cut or damaged plans file fails with viewer2d.loadfail saying why; with the IFC offered too, the IFC is loaded instead, with a warning', async () => {
    el = await createViewer2d(560, 400);
    const bytes = new Uint8Array(await (await fetch(plansOf(PLAN_MODELS.house))).arrayBuffer());
    const cut = URL.createObjectURL(new Blob([bytes.slice(0, bytes.length >> 1)]));
    const failures: { message: string }[] = [];
    el.addEventListener('viewer2d.loadfail', (e) => failures.push((e as CustomEvent).detail));
    const error = await el.loadUrl(cut, { modelId: 'cut' }).then(() => null, (e) => e);
    assertEqual(error?.type, 'plans', String(error));
    assert(/truncated/.test(error.message), error.message);
    assertEqual(failures.length, 1);
    assertEqual(el.getStoreys().length, 0, 'nothing of it loaded');
    for (const at of [30, bytes.length >> 1, bytes.length - 1]) {
      const flipped = bytes.slice();
      flipped[at] ^= 0x10;
      const damaged = await el.loadUrl(URL.createObjectURL(new Blob([flipped])), { modelId: 'flipped' }).then(() => null, (e) => e);
      assertEqual(damaged?.type, 'plans', String(damaged));
      assert(/checksum does not match/.test(damaged.message), `a bit flipped at byte ${at}: ${damaged.message}`);
    }
    assertEqual(failures.length, 4);
    assertEqual(el.getStoreys().length, 0, 'nothing of them loaded');

    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    try {
      const manifest = { models: [{ id: 'm', formats: [{ type: 'application/vnd.platform.plans', url: absolute('/scenes/samples/no-such-building.plans') }, { type: 'application/x-step', url: absolute(PLAN_MODELS.cabin) }] }] };
      await el.loadUrl(URL.createObjectURL(new Blob([JSON.stringify(manifest)], { type: 'application/json' })));
    } finally {
      console.warn = warn;
    }
    assert(el.getStoreys().length > 0, 'the cabin, from its IFC');
    assertEqual(warnings.length, 1, `${warnings}`);
    assert(/ifc format instead.*404/.test(warnings[0]), warnings[0]);
  });
});
