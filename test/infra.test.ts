// Smoke test of the browser-test pipeline itself: vite serving (with the demo backend), WebGL2, TS transforms,
// module workers, Playwright-driven input and the screenshot command.
import { readFile, resetMouse, sendMouse } from '@web/test-runner-commands';
import wasmUrl from 'web-ifc/web-ifc.wasm?url';
import { assert, assertEqual, assertRejects } from './support/assert';
import { clickElement, elementPoint } from './support/input';
import { compareScreenshot, expectScreenshot } from './support/screenshot';
import { SAMPLES, truthOf } from './support/samples';

describe('test infrastructure', () => {
  it('serves the sample buildings and their truth through vite (demo backend)', async () => {
    const res = await fetch(SAMPLES.cabin);
    assertEqual(res.status, 200, `status of ${SAMPLES.cabin}`);
    const text = await res.text();
    assert(text.startsWith('ISO-10303-21;'), `IFC file starts with ${JSON.stringify(text.slice(0, 20))}`);
    const truth = await truthOf(SAMPLES.cabin);
    assert(text.includes(`FILE_SCHEMA(('${truth.schema}'))`), `the truth's schema ${truth.schema} is the file's`);
  });

  it('resolves ?url imports (web-ifc wasm)', async () => {
    const bytes = new Uint8Array(await (await fetch(wasmUrl)).arrayBuffer());
    assertEqual([...bytes.slice(0, 4)].join(','), '0,97,115,109', `wasm magic of ${wasmUrl}`);
  });

  it('creates a WebGL2 context', () => {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl2');
    assert(gl, 'canvas.getContext("webgl2") returned null');
    const version = String(gl.getParameter(gl.VERSION));
    assert(version.includes('WebGL 2'), `gl.VERSION is ${version}`);
  });

  it('transforms TypeScript on dynamic import', async () => {
    const mod = await import('./support/ts-probe');
    assertEqual(mod.probe(), mod.Probe.Ok);
    assertEqual(new mod.Greeter('wall').greet(), 'hello wall');
  });

  it('runs a TypeScript module worker', async () => {
    const worker = new Worker(new URL('./support/probe-worker.ts', import.meta.url), { type: 'module' });
    try {
      const reply = await new Promise<{ echo: number; probe: string }>((resolve, reject) => {
        worker.onmessage = e => resolve(e.data);
        worker.onerror = e => reject(new Error(`worker error: ${e.message}`));
        worker.postMessage(21);
      });
      assertEqual(reply.echo, 42);
      assertEqual(reply.probe, 'ts-probe-ok');
    } finally {
      worker.terminate();
    }
  });

  it('assertRejects reports what it saw', async () => {
    await assertRejects(Promise.reject(new Error('boom 42')), /boom \d+/);
    const err = await assertRejects(assertRejects(Promise.resolve(1)), 'expected a rejection');
    assert(err instanceof Error);
  });

  describe('sendMouse', () => {
    let button: HTMLButtonElement;
    beforeEach(() => {
      button = document.createElement('button');
      button.textContent = 'target';
      button.style.cssText = 'position:fixed;left:40px;top:30px;width:120px;height:50px;margin:0';
      document.body.append(button);
    });
    afterEach(async () => {
      button.remove();
      await resetMouse();
    });

    it('moves over and clicks an element', async () => {
      const seen: string[] = [];
      let click: MouseEvent | undefined;
      button.addEventListener('pointerenter', () => seen.push('pointerenter'));
      button.addEventListener('click', e => {
        seen.push('click');
        click = e;
      });
      const [x, y] = elementPoint(button);
      await sendMouse({ type: 'move', position: [x, y] });
      assertEqual(seen.join(','), 'pointerenter');
      await clickElement(button);
      assert(click, 'no click event');
      assert(click.isTrusted, 'click event is not trusted');
      assertEqual(click.clientX, x, 'clientX');
      assertEqual(click.clientY, y, 'clientY');
    });
  });

  describe('compare-screenshot', () => {
    function pattern(shift = 0): HTMLCanvasElement {
      const canvas = document.createElement('canvas');
      canvas.width = 64;
      canvas.height = 48;
      const ctx = canvas.getContext('2d')!;
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, 64, 48);
      ctx.fillStyle = '#d03030';
      ctx.fillRect(4 + shift, 4, 24, 16);
      ctx.fillStyle = '#3050d0';
      ctx.fillRect(36, 24, 20, 18);
      return canvas;
    }

    it('matches the expected image', async () => {
      const result = await expectScreenshot('infra/pattern', pattern());
      assertEqual(result.ok, true);
    });

    it('fails on a different image and writes the actual and diff images', async () => {
      const result = await compareScreenshot('infra/pattern', pattern(12));
      assertEqual(result.ok, false, 'comparison of a shifted pattern');
      assert((result.mismatch ?? 0) > 0.01, `mismatch ${result.mismatch}`);
      assert(result.message?.includes('pixels differ'), `message: ${result.message}`);
      assertEqual(result.actual, 'test/screenshots/actual/infra/pattern.png');
      assertEqual(result.diff, 'test/screenshots/actual/infra/pattern.diff.png');
      // readFile resolves paths relative to this test file (test/)
      for (const file of [result.actual!, result.diff!]) {
        const b64 = await readFile({ path: `../${file}`, encoding: 'base64' });
        assert(b64?.startsWith('iVBORw0KGgo'), `${file} is not a PNG written by the command`);
      }
      await assertRejects(expectScreenshot('infra/pattern', pattern(12)), /pixels differ/);
    });

    it('fails on a different size', async () => {
      const small = document.createElement('canvas');
      small.width = 32;
      small.height = 32;
      const result = await compareScreenshot('infra/pattern', small);
      assertEqual(result.ok, false);
      assert(result.message?.includes('size 32x32 differs from expected 64x48'), `message: ${result.message}`);
    });
  });
});
