import { assert, assertEqual } from './support/assert';
import { createViewer, removeViewer, MODELS } from './support/viewer';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';

// Frameworks unmount elements by taking them out of the page (React, Vue, Angular): the
// viewer must give its WebGL context back then, not when garbage is collected.

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
const contextOf = (el: BimViewer3d) => el.shadowRoot!.querySelector('canvas')!.getContext('webgl2')!;

describe('a viewer taken out of the page', () => {
  let el: BimViewer3d;
  afterEach(() => removeViewer(el));

  it('releases its WebGL context after the task that removed it', async () => {
    el = await createViewer(300, 200);
    await el.loadUrl(MODELS.house);
    const context = contextOf(el);
    el.remove();
    assert(!context.isContextLost(), 'kept during the task that removed it');
    await nextTask();
    await nextTask();
    assert(context.isContextLost(), 'lost once the element stayed out');
    assertEqual(el.shadowRoot!.querySelector('canvas'), null, 'its canvas is gone');
    const error = await el.modelInfo().then(() => undefined, (e: { type: string; message: string }) => e);
    assertEqual(error?.type, 'disposed', 'calls while out of the page reject');
    assert(/removed from the page/.test(error!.message), error!.message);
  });

  it('rejects a load its release cut short as disposed, without a viewer.error', async () => {
    el = await createViewer(300, 200);
    const errors: unknown[] = [];
    el.addEventListener('viewer.error', (e) => errors.push(e.detail));
    const load = el.loadUrl(MODELS.house).then(() => undefined, (e: { type: string }) => e);
    await new Promise((resolve) => el.addEventListener('viewer.streamingprogress', resolve, { once: true }));
    el.remove();
    const error = await load;
    assertEqual(error?.type, 'disposed', 'the load rejects as disposed');
    assertEqual(errors.length, 0, 'no viewer.error for a viewer nobody shows');
  });

  it('keeps everything when moved within one task', async () => {
    el = await createViewer(300, 200);
    await el.loadUrl(MODELS.house);
    const context = contextOf(el);
    const holder = document.createElement('div');
    document.body.appendChild(holder);
    holder.appendChild(el); // a move: out and back in at once
    await nextTask();
    await nextTask();
    assert(!context.isContextLost(), 'the context is kept');
    assertEqual((await el.modelInfo()).length, 1, 'the model is still there');
    document.body.appendChild(el);
    holder.remove();
  });

  it('starts empty and works again when put back later', async () => {
    el = await createViewer(300, 200);
    await el.loadUrl(MODELS.house);
    el.remove();
    await nextTask();
    await nextTask();
    document.body.appendChild(el);
    assertEqual((await el.modelInfo()).length, 0, 'no models after coming back');
    const context = contextOf(el);
    assert(!context.isContextLost(), 'a new live context');
    await el.loadUrl(MODELS.house);
    assertEqual((await el.modelInfo()).length, 1, 'loads again');
    assert((await el.renderInfo()).triangles > 0, 'and draws');
  });
});
