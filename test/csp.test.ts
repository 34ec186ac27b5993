// The built script-tag bundles (dist/, `npm run build`) on a page under a strict Content
// Security Policy: no 'unsafe-eval' (only 'wasm-unsafe-eval' for web-ifc), no inline
// script or style, workers only from the page's origin (test/support/csp-route.mjs sends
// the policy as a header with the page and every dist/ file, so the workers run under it
// too). The viewers must load and draw a model, and nothing may be blocked: the page's
// `securitypolicyviolation` events and the browser's reports (which workers send too)
// must stay empty.
import { assert, assertDeepEqual } from './support/assert';
import { sleep, waitFor } from './support/page';
import { SAMPLES } from './support/samples';
import { pixels } from './support/viewer';

/* eslint-disable @typescript-eslint/no-explicit-any */
const reports = async (): Promise<string[]> => (await fetch('/csp/reports')).json();

/** The share of a PNG's pixels that differ from its top left pixel (the background). */
async function drawnShare(dataUrl: string): Promise<number> {
  const { data, width, height } = await pixels(dataUrl);
  let differing = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i] - data[0]) + Math.abs(data[i + 1] - data[1]) + Math.abs(data[i + 2] - data[2]) > 30) differing++;
  }
  return differing / (width * height);
}

/** The test page (test/support/csp-route.mjs) in an iframe. */
async function openPage(url: string): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'width:420px;height:640px;border:0';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = url;
  document.body.append(frame);
  await loaded;
  return frame;
}

/** Resolves to the promise's rejection, or fails when it resolves or takes over `ms` (a hang). */
async function rejection(promise: Promise<unknown>, ms = 30_000): Promise<{ type?: string; message?: string }> {
  const outcome = await Promise.race([
    promise.then(() => 'resolved', (e: unknown) => e as { type?: string; message?: string }),
    sleep(ms).then(() => 'hung'),
  ]);
  if (typeof outcome === 'string') throw new Error(`the load ${outcome} instead of failing`);
  return outcome;
}

describe('a page under a Content Security Policy without unsafe-eval', function () {
  let frame: HTMLIFrameElement;
  let win: Window & Record<string, any>;

  before(async () => {
    const head = await fetch('/dist/viewer3d.js', { method: 'HEAD' });
    if (head.status !== 200) throw new Error(`dist/viewer3d.js is missing (HTTP ${head.status}): run \`npm run build\` before the tests`);
    await reports(); // forget reports of earlier runs
    frame = await openPage('/csp/page.html');
    win = frame.contentWindow as Window & Record<string, any>;
  });

  after(() => frame?.remove());

  it('the policy is in force: eval is refused, and reported', async () => {
    let refused = false;
    try {
      win.eval('1');
    } catch (e) {
      refused = (e as Error).name === 'EvalError';
    }
    assert(refused, 'eval throws an EvalError in the page');
    await waitFor(() => win.cspViolations.length > 0, 'the violation event', 5_000);
    assert(win.cspViolations[0].startsWith('script-src'), `the violation: ${win.cspViolations[0]}`);
    const seen = await waitFor(async () => ((await reports()).length > 0 ? true : (await sleep(100), false)), 'the violation report', 5_000);
    assert(seen, 'the report');
    win.cspViolations.length = 0;
  });

  it('<bim-viewer-3d> loads and draws an IFC model, nothing blocked', async () => {
    const viewer: any = win.document.getElementById('viewer3d');
    assert(win.customElements.get('bim-viewer-3d'), 'the bundle defined <bim-viewer-3d>');
    await viewer.loadUrl(SAMPLES.house);
    assert((await viewer.each()).length > 100, 'the model\'s objects are there');
    const share = await drawnShare(await viewer.screenshot());
    assert(share > 0.05, `the model is drawn (${(share * 100).toFixed(1)} % of the pixels)`);
    const products = await viewer.getProducts((await viewer.each()).slice(0, 5));
    assert(products.every((p: { type?: string } | null) => p?.type), 'products read in the worker (web-ifc\'s schema tables loaded)');
    await sleep(200);
    assertDeepEqual([...win.cspViolations], [], 'violations in the page');
    assertDeepEqual(await reports(), [], 'violation reports (page and workers)');
  });

  it('<bim-viewer-2d> loads and draws a storey plan, nothing blocked', async () => {
    const viewer: any = win.document.getElementById('viewer2d');
    assert(win.customElements.get('bim-viewer-2d'), 'the bundle defined <bim-viewer-2d>');
    await viewer.loadUrl(SAMPLES.house);
    const storey = viewer.getStoreys().find((s: { id: string }) => viewer.getSpaces({ storeyId: s.id }).length > 0);
    assert(storey, 'a storey with spaces');
    await viewer.showStorey(storey.id);
    const plan = viewer.shadowRoot.querySelector('svg.plan') as SVGSVGElement;
    assert(plan && plan.querySelectorAll('path, polygon, polyline, line').length > 20, 'the plan is drawn');
    await sleep(200);
    assertDeepEqual([...win.cspViolations], [], 'violations in the page');
    assertDeepEqual(await reports(), [], 'violation reports (page and workers)');
  });
});

describe('a page whose Content Security Policy refuses the bundles\' workers (bundles from another origin, no worker-src blob:)', function () {
  let frame: HTMLIFrameElement;
  after(() => frame?.remove());

  it('both viewers fail their load with a clear error, and do not hang', async () => {
    frame = await openPage('/csp/page.html?from=other');
    const win = frame.contentWindow as Window & Record<string, any>;
    const viewer3d: any = win.document.getElementById('viewer3d');
    const errors3d: { type: string; message: string }[] = [];
    viewer3d.addEventListener('viewer.error', (e: CustomEvent) => errors3d.push(e.detail));
    const error3d = await rejection(viewer3d.loadUrl(SAMPLES.house));
    assert(error3d.type === 'ifc' && /worker/i.test(error3d.message ?? ''), `the 3D viewer's error: ${error3d.type}: ${error3d.message}`);
    assert(errors3d.some((e) => e.type === 'ifc'), 'viewer.error');
    const viewer2d: any = win.document.getElementById('viewer2d');
    const error2d = await rejection(viewer2d.loadUrl(SAMPLES.house));
    assert(/worker/i.test(error2d.message ?? ''), `the 2D viewer's error: ${error2d.message}`);
    await reports();
  });

  it('says on the console that the IFC engine did not start, before any IFC file is asked for', async () => {
    const win = frame.contentWindow as Window & Record<string, any>;
    const warnings: string[] = [];
    win.console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    win.document.body.append(win.document.createElement('bim-viewer-3d')); // a new viewer starts its own engine
    await waitFor(() => warnings.some((w) => /IFC engine did not start/.test(w)), 'the warning', 30_000);
    assert(warnings.some((w) => /ifc-worker\.js and web-ifc\.wasm/.test(w)), warnings.join('\n'));
  });
});
