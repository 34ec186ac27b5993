// The demo pages (demo/*.html, served by the demo backend) in a frame of the test page.
/* eslint-disable @typescript-eslint/no-explicit-any */
import type { BimViewer2d } from '../../src/elements/bim-viewer-2d';
import { assert } from './assert';

/** The page at `src` in a 1000 px wide frame at the top left; `check` runs with the frame, which goes afterwards. */
export async function inDemoFrame(src: string, height: number, check: (iframe: HTMLIFrameElement) => Promise<void>) {
  const iframe = document.createElement('iframe');
  iframe.style.cssText = `position:fixed;left:0;top:0;width:1000px;height:${height}px;border:0`;
  iframe.src = src;
  document.body.append(iframe);
  try {
    await check(iframe);
  } finally {
    iframe.remove();
  }
}

export interface PlanPage {
  /** The storey picker, filled. */
  picker: HTMLSelectElement;
  viewer2d: BimViewer2d;
  viewer3d: any;
}

/** demo/plan.html (2D + 3D) on a project, once it has filled its storey picker. */
export function onPlanPage(project: string, check: (page: PlanPage) => Promise<void>) {
  return inDemoFrame(`/demo/plan.html?project=${project}`, 700, async (iframe) => {
    const frame = () => iframe.contentWindow as unknown as Window & { viewer2d?: BimViewer2d; viewer3d?: any; document: Document };
    const start = performance.now();
    while (!((frame().document?.getElementById('storey') as HTMLSelectElement | null)?.options.length)) {
      if (performance.now() - start > 90_000) throw new Error('the page did not fill its storey picker');
      await new Promise((r) => setTimeout(r, 100));
    }
    const picker = frame().document.getElementById('storey') as HTMLSelectElement;
    await check({ picker, viewer2d: frame().viewer2d!, viewer3d: frame().viewer3d! });
  });
}

/** Waits until the plan page's 3D viewer has a model. */
export async function until3dLoaded(page: PlanPage) {
  while ((await page.viewer3d.modelInfo()).length === 0) await new Promise((r) => setTimeout(r, 100));
}

/** What dragging the arrow does: the page moves the 3D camera there, at eye height. */
export async function assertArrowDrives3dCamera({ viewer2d, viewer3d }: PlanPage) {
  const change = { location: { x: 2, y: -15, z: 0 }, direction: { x: 1, y: 0, z: 0 }, rotation: 0 };
  viewer2d.dispatchEvent(new CustomEvent('viewer2d.viewpoint', { detail: { viewpoint: change }, bubbles: true, composed: true }));
  await new Promise((r) => setTimeout(r, 200));
  const vp = await viewer3d.viewpoint();
  assert(Math.abs(vp.location.x - 2) < 1e-3 && Math.abs(vp.location.y + 15) < 1e-3 && Math.abs(vp.location.z - 1.6) < 1e-3, `3D camera at the arrow: ${JSON.stringify(vp.location)}`);
}
