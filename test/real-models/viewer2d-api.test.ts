// <bim-viewer-2d> on real IFC files (BIM_MODELS) where a check needs one: a model without
// storeys (bpi-office) appended to and replacing others. The documented methods
// themselves are tested on the generated buildings in test/viewer2d-api.test.ts.
import type { BimViewer2d } from '../../src/elements/bim-viewer-2d';
import { assert, assertDeepEqual, assertEqual } from '../support/assert';
import { REAL_MODELS } from '../support/real-models';
import { createViewer2d, removeViewer2d } from '../support/viewer2d';

function record<T = unknown>(el: EventTarget, name: string): T[] {
  const seen: T[] = [];
  el.addEventListener(name, (e) => seen.push((e as CustomEvent<T>).detail));
  return seen;
}

describe('<bim-viewer-2d> loading real files', function () {
  let el: BimViewer2d;
  afterEach(() => removeViewer2d(el));

  it('append keeps models, and without it loadUrl replaces them (unload events); unloadModel', async () => {
    el = await createViewer2d(400, 300);
    const unloads = record<{ modelId: string }>(el, 'viewer2d.unload');
    await el.loadUrl(REAL_MODELS.helloWall, { modelId: 'wall' });
    await el.loadUrl(REAL_MODELS.pcert, { modelId: 'pcert', append: true });
    assertEqual(el.getStoreys({ all: true }).length, 2, 'two models');
    assertEqual(el.getStoreys().length, 1, 'without all: the first model only');
    assertEqual(el.getSpaces({ all: true }).length, 3);
    assertNotSameIds(el.getSpaces({ all: true }).map((s) => s.id));
    await el.loadUrl(REAL_MODELS.bpi);
    assertDeepEqual(unloads.map((u) => u.modelId).sort(), ['pcert', 'wall']);
    const storeys = el.getStoreys();
    assertEqual(storeys.length, 1);
    assertEqual(storeys[0].name, 'Default storey', 'bpi-office has no storey: a default one');
    assertEqual(el.getSpaces({ storeyId: storeys[0].id }).length, 8);
    const modelId = (el as unknown as { core: { modelIds(): string[] } }).core.modelIds()[0];
    assert(/^[0-9a-f]{32}$/.test(modelId), `a random id when none is given: ${modelId}`);
    await el.unloadModel(modelId);
    assertDeepEqual(el.getStoreys(), []);
    assertEqual(unloads.at(-1)!.modelId, modelId);
  });
});

function assertNotSameIds(ids: string[]) {
  assertEqual(new Set(ids).size, ids.length, 'ids are unique across models');
}
