import '../../src/elements/bim-viewer-3d';
import '../../src/elements/bim-viewer-ui';
import type { BimViewer3d } from '../../src/elements/bim-viewer-3d';
import type { BimViewerUi } from '../../src/elements/bim-viewer-ui';
import type { Vec3 } from '../../src/core/types';
import { elementPoint, sendMouse, type Point } from './input';
import { MODELS } from './viewer';

/** A <bim-viewer-ui> wrapping a fresh <bim-viewer-3d>, fixed at the top left of the page. */
export async function createWidget(width = 640, height = 480, attributes: Record<string, string> = {}): Promise<{ ui: BimViewerUi; el: BimViewer3d }> {
  const ui = document.createElement('bim-viewer-ui');
  ui.style.cssText = `position:fixed;left:0;top:0;width:${width}px;height:${height}px`;
  for (const [k, v] of Object.entries(attributes)) ui.setAttribute(k, v);
  const el = document.createElement('bim-viewer-3d');
  ui.appendChild(el);
  document.body.appendChild(ui);
  await ui.updateComplete;
  await el.updateComplete;
  return { ui, el };
}

export async function removeWidget(w: { ui: BimViewerUi; el: BimViewer3d } | undefined) {
  if (!w) return;
  await w.el.dispose().catch(() => undefined);
  w.ui.remove();
}

/** A widget (with `attributes`) over the sample house, drawn; with its middle and its top left corner in page pixels. */
export async function openWidgetOnHouse(attributes: Record<string, string> = {}) {
  const { ui, el } = await createWidget(640, 480, attributes);
  await el.loadUrl(MODELS.house);
  await frames();
  return { ui, el, middle: elementPoint(el, 0.5, 0.5), corner: elementPoint(el, 0.02, 0.02) };
}

/** A real click on the viewer; resolves to the object hit (undefined on background). */
export async function clickObject(el: BimViewer3d, at: Point): Promise<string | undefined> {
  const seen: (string | undefined)[] = [];
  const listen = (e: Event) => seen.push((e as CustomEvent<{ objectId?: string }>).detail.objectId);
  el.addEventListener('viewer.click', listen);
  await sendMouse({ type: 'click', position: at });
  await until(() => seen.length > 0, 'viewer.click');
  el.removeEventListener('viewer.click', listen);
  return seen[0];
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function until(condition: () => boolean | Promise<boolean>, what: string, timeout = 5000) {
  const end = performance.now() + timeout;
  while (!(await condition())) {
    if (performance.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await sleep(20);
  }
}

export const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

export const dist = (a: Vec3, b: Vec3) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
export const angle = (a: Vec3, b: Vec3) => {
  const d = (a.x * b.x + a.y * b.y + a.z * b.z) / (Math.hypot(a.x, a.y, a.z) * Math.hypot(b.x, b.y, b.z));
  return (Math.acos(Math.max(-1, Math.min(1, d))) * 180) / Math.PI;
};
