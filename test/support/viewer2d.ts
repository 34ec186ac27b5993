import '../../src/elements/bim-viewer-2d';
import type { BimViewer2d } from '../../src/elements/bim-viewer-2d';

/** The sample buildings (test/support/samples.ts). */
export { SAMPLES as PLAN_MODELS } from './samples';

/** A fresh <bim-viewer-2d> of the given size at the top left of the page. */
export async function createViewer2d(width = 640, height = 480, attributes: Record<string, string> = {}): Promise<BimViewer2d> {
  const el = document.createElement('bim-viewer-2d');
  el.style.cssText = `position:fixed;left:0;top:0;width:${width}px;height:${height}px`;
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  document.body.appendChild(el);
  await el.updateComplete;
  return el;
}

export async function removeViewer2d(el: BimViewer2d | undefined) {
  if (!el) return;
  await el.dispose().catch(() => undefined);
  el.remove();
}

/** A viewer with one model loaded and one storey shown (by name, or the first with spaces). */
export async function showPlan(url: string, storeyName?: string, width = 640, height = 480): Promise<{ el: BimViewer2d; storeyId: string }> {
  const el = await createViewer2d(width, height);
  await el.loadUrl(url);
  const storeys = el.getStoreys();
  const storey = storeyName ? storeys.find((s) => s.name === storeyName) : storeys.find((s) => el.getSpaces({ storeyId: s.id }).length > 0) ?? storeys[0];
  if (!storey) throw new Error(`no storey ${storeyName ?? ''} in ${url}`);
  await el.showStorey(storey.id);
  return { el, storeyId: storey.id };
}

/** The next animation frames (so the SVG is laid out and painted). */
export function frames(n = 2): Promise<void> {
  return new Promise((resolve) => {
    const step = () => (--n <= 0 ? resolve() : requestAnimationFrame(step));
    requestAnimationFrame(step);
  });
}

/** The element's SVG (in its shadow root). */
export function planSvg(el: BimViewer2d): SVGSVGElement {
  const svg = el.shadowRoot?.querySelector('svg.plan');
  if (!svg) throw new Error('no plan SVG');
  return svg as SVGSVGElement;
}
