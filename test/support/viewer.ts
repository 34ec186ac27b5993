import '../../src/elements/bim-viewer-3d';
import type { BimViewer3d } from '../../src/elements/bim-viewer-3d';
import { SAMPLES } from './samples';

/** The sample buildings (test/support/samples.ts), under the name tests use for models. */
export { SAMPLES as MODELS } from './samples';

/** A fresh <bim-viewer-3d> of the given size, attached to the page at the top left. */
export async function createViewer(width = 640, height = 480, attributes: Record<string, string> = {}): Promise<BimViewer3d> {
  const el = document.createElement('bim-viewer-3d');
  el.style.cssText = `position:fixed;left:0;top:0;width:${width}px;height:${height}px`;
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  document.body.appendChild(el);
  await el.updateComplete;
  return el;
}

/** Removes a viewer made by createViewer, releasing its GPU context. */
export async function removeViewer(el: BimViewer3d | undefined) {
  if (!el) return;
  await el.dispose().catch(() => undefined);
  el.remove();
}

/** Records the events of one name with their details. */
export function record<T = unknown>(el: EventTarget, name: string): T[] {
  const seen: T[] = [];
  el.addEventListener(name, (e) => seen.push((e as CustomEvent<T>).detail));
  return seen;
}

/** The next event of one name. */
export function nextEvent<T = unknown>(el: EventTarget, name: string, timeout = 60_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${name} within ${timeout} ms`)), timeout);
    el.addEventListener(name, (e) => {
      clearTimeout(timer);
      resolve((e as CustomEvent<T>).detail);
    }, { once: true });
  });
}

/** Object ids of one IFC type in the loaded models. */
export async function idsOfType(el: BimViewer3d, type: string): Promise<string[]> {
  const products = await el.getProducts(await el.each());
  return products.filter((p) => p && p.type === type).map((p) => p!.objectId);
}

/** Fraction of pixels that differ by more than `threshold` (0..255 per channel) between two PNG data URLs. */
export async function pixelDifference(a: string, b: string, threshold = 24): Promise<number> {
  const [da, db] = await Promise.all([pixels(a), pixels(b)]);
  if (da.width !== db.width || da.height !== db.height) return 1;
  let differing = 0;
  for (let i = 0; i < da.data.length; i += 4) {
    if (Math.abs(da.data[i] - db.data[i]) > threshold || Math.abs(da.data[i + 1] - db.data[i + 1]) > threshold || Math.abs(da.data[i + 2] - db.data[i + 2]) > threshold) differing++;
  }
  return differing / (da.width * da.height);
}

/** RGBA of one pixel of a PNG data URL. */
export async function pixelAt(url: string, x: number, y: number): Promise<[number, number, number, number]> {
  const img = await pixels(url);
  const i = (Math.floor(y) * img.width + Math.floor(x)) * 4;
  return [img.data[i], img.data[i + 1], img.data[i + 2], img.data[i + 3]];
}

/** The pixels of a PNG data URL. */
export async function pixels(url: string): Promise<ImageData> {
  const image = new Image();
  image.src = url;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(image, 0, 0);
  return ctx.getImageData(0, 0, image.width, image.height);
}

/** A viewer showing the sample house, with the ids tests use most (walls: IfcWall and IfcWallStandardCase). */
export async function loadHouse(width: number, height: number) {
  const el = await createViewer(width, height);
  await el.loadUrl(SAMPLES.house);
  const walls = [...(await idsOfType(el, 'IfcWall')), ...(await idsOfType(el, 'IfcWallStandardCase'))];
  return { el, walls, windows: await idsOfType(el, 'IfcWindow') };
}

/** Back to the state after loading: everything but spaces shown, opaque, unselected, own colours. */
export async function resetObjects(el: BimViewer3d) {
  await el.showAll();
  await el.hide(await idsOfType(el, 'IfcSpace'));
  await el.opaqueAll();
  await el.deselectAll();
  await el.resetColors();
}
