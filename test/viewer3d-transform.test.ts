import { sendMouse, resetMouse } from '@web/test-runner-commands';
import { assert, assertAlmostEqual, assertEqual, assertRejects } from './support/assert';
import { createViewer, removeViewer, nextEvent, MODELS } from './support/viewer';
import { truthOf } from './support/samples';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Box, Intersection } from '../src/core/types';

const size = (b: Box) => ({ x: b.max.x - b.min.x, y: b.max.y - b.min.y, z: b.max.z - b.min.z });

describe('transformModel', () => {
  let el: BimViewer3d;
  let a: Box;
  let bIds: string[];

  before(async () => {
    el = await createViewer(400, 300);
    await el.loadModel(MODELS.cabin, { modelId: 'a' });
    const aIds = await el.each();
    await el.loadModel(MODELS.cabin, { modelId: 'b' });
    bIds = (await el.each()).filter((id) => !aIds.includes(id));
    a = (await el.modelInfo('a'))[0].boundingBox;
  });
  after(async () => {
    await resetMouse();
    await removeViewer(el);
  });

  it('moves a model by position; boxes, modelInfo and picking follow', async () => {
    const box = (await truthOf(MODELS.cabin)).box!;
    (['x', 'y', 'z'] as const).forEach((axis, k) => assertAlmostEqual(a.min[axis], box.min[k], 1e-3, `untransformed, the model is where the file puts it (min ${axis})`));
    await el.transformModel('b', { position: { x: 20, y: 0, z: 0 } });
    const b = (await el.modelInfo('b'))[0].boundingBox;
    assertAlmostEqual(b.min.x, a.min.x + 20, 1e-4);
    assertAlmostEqual(b.max.z, a.max.z, 1e-4);
    const objectBox = (await el.boundingBox(bIds[0]))!;
    assert(objectBox.min.x >= a.min.x + 20 - 1e-4, 'object boxes move too');
    await el.lookAt(bIds, 'front');
    const rect = el.getBoundingClientRect();
    const click = nextEvent<{ objectId?: string; intersects?: Intersection }>(el, 'viewer.click');
    await sendMouse({ type: 'click', position: [Math.round(rect.left + rect.width / 2), Math.round(rect.top + rect.height / 2)] });
    const hit = await click;
    assert(hit.objectId && bIds.includes(hit.objectId), `the moved model is picked where it is drawn: ${hit.objectId}`);
    assert(hit.intersects!.point.x > a.max.x + 1, `the pick point is at the moved place: x ${hit.intersects!.point.x}`);
  });

  it('scales and turns about the IFC origin; each call replaces the last', async () => {
    await el.transformModel('b', { scale: { x: 2, y: 2, z: 2 } });
    const scaled = (await el.modelInfo('b'))[0].boundingBox;
    assertAlmostEqual(size(scaled).z, size(a).z * 2, 1e-3, 'twice as tall');
    await el.transformModel('b', { rotation: { x: 0, y: 0, z: 1, angle: Math.PI / 2 } });
    const turned = (await el.modelInfo('b'))[0].boundingBox;
    assertAlmostEqual(size(turned).x, size(a).y, 1e-3, 'a quarter turn swaps x and y');
    assertAlmostEqual(size(turned).y, size(a).x, 1e-3);
    assertAlmostEqual(turned.min.x, -a.max.y, 1e-3, 'turned about the origin');
    await el.transformModel('b', {});
    const back = (await el.modelInfo('b'))[0].boundingBox;
    assertAlmostEqual(back.min.x, a.min.x, 1e-4, 'an empty transform puts it back');
    assertEqual((await el.modelInfo('a'))[0].boundingBox.min.x, a.min.x, 'the other model stays');
    await assertRejects(el.transformModel('b', { rotation: { x: 0, y: 0, z: 1 } } as never), /angle/);
    await assertRejects(el.transformModel('nope', {}), /No model with id "nope"/);
  });
});
