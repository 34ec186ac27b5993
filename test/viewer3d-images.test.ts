import { assert, assertEqual, assertRejects } from './support/assert';
import { createViewer, removeViewer, MODELS, pixelAt, pixelDifference } from './support/viewer';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';

type Rgb = [number, number, number];
const RED: Rgb = [255, 0, 0], GREEN: Rgb = [0, 200, 0], BLUE: Rgb = [0, 0, 255], YELLOW: Rgb = [255, 220, 0];

/** A 64x64 picture in four colours: red top left, green top right, blue bottom left, yellow bottom right. */
async function quadrants(type: 'image/png' | 'image/jpeg'): Promise<string> {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const ctx = canvas.getContext('2d')!;
  ([[RED, 0, 0], [GREEN, 32, 0], [BLUE, 0, 32], [YELLOW, 32, 32]] as [Rgb, number, number][]).forEach(([c, x, y]) => {
    ctx.fillStyle = `rgb(${c})`;
    ctx.fillRect(x, y, 32, 32);
  });
  const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), type, 0.95));
  return URL.createObjectURL(blob);
}

/** A 1x1 red GIF, byte for byte. */
function redGif(): string {
  const bytes = Uint8Array.from(atob('R0lGODlhAQABAPAAAP8AAAAAACH5BAAAAAAALAAAAAABAAEAAAICRAEAOw=='), (c) => c.charCodeAt(0));
  return URL.createObjectURL(new Blob([bytes], { type: 'image/gif' }));
}

/** An uncompressed 4x4 RGBA DDS, all one colour. */
function dds([r, g, b]: Rgb): string {
  const header = new Uint32Array(32);
  header[0] = 0x20534444; // 'DDS '
  header[1] = 124;
  header[2] = 0x1 | 0x2 | 0x4 | 0x1000;
  header[3] = 4; // height
  header[4] = 4; // width
  header[7] = 1; // mipmaps
  header[19] = 32; // pixel format size
  header[20] = 0x41; // RGB + alpha
  header[22] = 32;
  header[23] = 0x00ff0000;
  header[24] = 0x0000ff00;
  header[25] = 0x000000ff;
  header[26] = 0xff000000;
  header[27] = 0x1000;
  const pixels = new Uint8Array(4 * 4 * 4);
  for (let i = 0; i < 16; i++) pixels.set([b, g, r, 255], i * 4); // BGRA in memory
  return URL.createObjectURL(new Blob([header, pixels]));
}

const close = (a: number[], b: Rgb, tolerance = 60) => a.slice(0, 3).every((v, i) => Math.abs(v - b[i]) <= tolerance);

describe('images in the 3D view', () => {
  let el: BimViewer3d;
  before(async () => {
    el = await createViewer(400, 400);
    await el.loadUrl(MODELS.cabin);
    await el.hideAll();
  });
  after(() => removeViewer(el));

  /** Looks straight down at a 20 m square around (0, 0, 0): 1 m is 400/22 pixels. */
  async function topView() {
    await el.lookAtBoundingBox({ min: { x: -10, y: -10, z: 0 }, max: { x: 10, y: 10, z: 0 } }, 'top');
    return el.screenshot();
  }

  it('a PNG lies on the origin facing up, the right way round, in metres', async () => {
    await el.images([{ url: await quadrants('image/png'), size: { width: 16, height: 16 } }]);
    const shot = await topView();
    const at = async (x: number, y: number) => pixelAt(shot, 200 + x * (400 / 22 / 1.08), 200 - y * (400 / 22 / 1.08));
    assert(close(await at(-4, 4), RED), `top left is red: ${await at(-4, 4)}`);
    assert(close(await at(4, 4), GREEN), `top right is green: ${await at(4, 4)}`);
    assert(close(await at(-4, -4), BLUE), `bottom left is blue: ${await at(-4, -4)}`);
    assert(close(await at(4, -4), YELLOW), `bottom right is yellow: ${await at(4, -4)}`);
    assert(!close(await at(9.5, 0), GREEN) && !close(await at(9.5, 0), YELLOW), 'nothing beyond 8 m');
  });

  it('JPG, GIF and DDS images, moved and turned', async () => {
    await el.images([
      { url: await quadrants('image/jpeg'), size: { width: 4, height: 4 }, transform: { position: { x: -5, y: 5, z: 0 } } },
      { url: redGif(), size: { width: 4, height: 4 }, transform: { position: { x: 5, y: 5, z: 0 } } },
      { url: dds(BLUE), size: { width: 4, height: 4 }, transform: { position: { x: 5, y: -5, z: 0 }, rotation: { x: 0, y: 0, z: 1, angle: Math.PI / 4 } } },
    ]);
    const shot = await topView();
    const at = (x: number, y: number) => pixelAt(shot, 200 + x * (400 / 22 / 1.08), 200 - y * (400 / 22 / 1.08));
    assert(close(await at(-6, 6), RED), `JPG at (-5, 5): ${await at(-6, 6)}`);
    assert(close(await at(5, 5), RED), `GIF at (5, 5): ${await at(5, 5)}`);
    assert(close(await at(5, -5), BLUE), `DDS at (5, -5): ${await at(5, -5)}`);
    // Turned 45 degrees: a corner of the 4 m square reaches 2.8 m along x.
    assert(close(await at(7.6, -5), BLUE), `the DDS square is turned: ${await at(7.6, -5)}`);
  });

  it('a missing image rejects and keeps the images there are; [] clears', async () => {
    const before = await topView();
    await assertRejects(el.images([{ url: '/models/no-such-image.png', size: { width: 1, height: 1 } }]), /404/);
    assert((await pixelDifference(before, await topView())) < 0.001, 'the old images stay');
    await assertRejects(el.images([{ url: 'x.png', size: { width: 0, height: 1 } }]), /size/);
    await el.images([]);
    const core = (el as unknown as { core: { images: { count(): number } } }).core;
    assertEqual(core.images.count(), 0);
  });
});
