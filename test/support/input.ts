// Mouse helpers over @web/test-runner-commands (driven by Playwright, so the events are
// trusted and go through the browser's hit testing). Positions are viewport CSS pixels.
import { resetMouse, sendMouse } from '@web/test-runner-commands';

export { resetMouse, sendKeys, sendMouse, setViewport } from '@web/test-runner-commands';

export type Point = [number, number];
export type MouseButton = 'left' | 'middle' | 'right';

/** Integer viewport coordinates of a point inside `el` (fx, fy: fractions of its box; default centre). */
export function elementPoint(el: Element, fx = 0.5, fy = 0.5): Point {
  const r = el.getBoundingClientRect();
  return [Math.round(r.left + r.width * fx), Math.round(r.top + r.height * fy)];
}

export async function clickAt(position: Point, button: MouseButton = 'left'): Promise<void> {
  await sendMouse({ type: 'click', position, button });
}

/** Clicks the centre of `el`. */
export async function clickElement(el: Element, button: MouseButton = 'left'): Promise<void> {
  await clickAt(elementPoint(el), button);
}

/** Presses at `from`, moves to `to` in `steps` moves, releases. */
export async function drag(
  from: Point,
  to: Point,
  { button = 'left', steps = 5 }: { button?: MouseButton; steps?: number } = {},
): Promise<void> {
  await sendMouse({ type: 'move', position: from });
  await sendMouse({ type: 'down', button });
  for (let i = 1; i <= steps; i++) {
    const t = i / steps;
    await sendMouse({
      type: 'move',
      position: [Math.round(from[0] + (to[0] - from[0]) * t), Math.round(from[1] + (to[1] - from[1]) * t)],
    });
  }
  await sendMouse({ type: 'up', button });
}

/** Releases all buttons and moves the mouse to (0, 0); call in afterEach of mouse tests. */
export async function releaseMouse(): Promise<void> {
  await resetMouse();
}
