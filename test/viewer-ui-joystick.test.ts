// The widget's joystick and options (seed 002 `enableJoystick`, `joystick*`), driven by
// real mouse drags (sendMouse); touch is synthesised as pointer events of type 'touch'
// (the test runner has no touch input), as in viewer3d-interaction.test.ts.
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { BimViewerUi } from '../src/elements/bim-viewer-ui';
import type { Vec3 } from '../src/core/types';
import { assert, assertEqual } from './support/assert';
import { elementPoint, resetMouse, sendMouse, type Point } from './support/input';
import { MODELS } from './support/viewer';
import { angle, createWidget, dist, frames, removeWidget, sleep, until } from './support/viewer-ui';

describe('<bim-viewer-ui> joystick', function () {
  let ui: BimViewerUi;
  let el: BimViewer3d;

  const stick = () => ui.shadowRoot!.querySelector('.joystick') as HTMLElement;
  const shown = () => !stick().hidden && stick().getBoundingClientRect().width > 0;

  /** Holds the knob at (dx, dy) times the radius from the centre for `ms`. */
  /** Pushes the knob for about `ms`; resolves to how long it was deflected (mouse round trips vary under load). */
  async function push(dx: number, dy: number, ms = 600): Promise<number> {
    const box = stick().getBoundingClientRect();
    const centre: Point = [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)];
    const r = box.width / 2;
    await sendMouse({ type: 'move', position: centre });
    await sendMouse({ type: 'down' });
    const start = performance.now();
    for (let i = 1; i <= 4; i++) await sendMouse({ type: 'move', position: [Math.round(centre[0] + (dx * r * i) / 4), Math.round(centre[1] + (dy * r * i) / 4)] });
    await sleep(ms);
    await sendMouse({ type: 'up' });
    const held = performance.now() - start;
    await sleep(50);
    return held;
  }

  before(async function () {
    ({ ui, el } = await createWidget(640, 480));
    await el.loadUrl(MODELS.house);
    await frames();
  });

  after(async () => {
    await resetMouse();
    await removeWidget({ ui, el });
  });

  beforeEach(async () => {
    await el.viewpoint('home');
    await ui.showJoystick();
  });

  it('has the documented defaults and is hidden until shown on a device without touch', async function () {
    assertEqual(ui.enableJoystick, true);
    assertEqual(ui.joystickColor, 'blue');
    assertEqual(ui.joystickPosition, 'bottom-center');
    assertEqual(ui.joystickRotationClamp, 2);
    assertEqual(ui.joystickBorderOffset, '20px');
    assertEqual(ui.joystickSize, 100);
    assertEqual(ui.joystickHidden, true);
    assertEqual(ui.enableKeyboard, false);
    assertEqual(ui.enableContextMenu, false);
    assertEqual(ui.spacesVisible, false);
    assertEqual(ui.viewer2dId, null);
    assertEqual(ui.enableViewer2dIntegration, false);
    assertEqual(ui.showViewer2dStoreySelect, false);
    await ui.hideJoystick();
    assert(!shown(), 'hideJoystick hides it');
    await ui.showJoystick();
    assert(shown(), 'showJoystick shows it');
    ui.enableJoystick = false;
    await ui.updateComplete;
    assert(!shown(), 'enableJoystick false hides it');
    ui.enableJoystick = true;
    await ui.updateComplete;
  });

  it('sits in the five places, offset from the border, at its size and colour', async function () {
    await ui.updateJoystickOptions({ joystickSize: 80, joystickBorderOffset: '30px', joystickColor: 'rgb(255, 0, 0)' });
    const host = ui.getBoundingClientRect();
    const expect: Record<string, (b: DOMRect) => boolean> = {
      'middle-left': (b) => Math.abs(b.left - 30) < 1.5 && Math.abs(b.top + b.height / 2 - host.height / 2) < 1.5,
      'bottom-left': (b) => Math.abs(b.left - 30) < 1.5 && Math.abs(host.height - b.bottom - 30) < 1.5,
      'bottom-center': (b) => Math.abs(b.left + b.width / 2 - host.width / 2) < 1.5 && Math.abs(host.height - b.bottom - 30) < 1.5,
      'bottom-right': (b) => Math.abs(host.width - b.right - 30) < 1.5 && Math.abs(host.height - b.bottom - 30) < 1.5,
      'middle-right': (b) => Math.abs(host.width - b.right - 30) < 1.5 && Math.abs(b.top + b.height / 2 - host.height / 2) < 1.5,
    };
    for (const [place, ok] of Object.entries(expect)) {
      await ui.setJoystickPosition(place as never);
      const b = stick().getBoundingClientRect();
      assert(ok(b), `${place}: ${b.left},${b.top} ${b.width}x${b.height}`);
      assertEqual(Math.round(b.width), 80);
    }
    assertEqual(getComputedStyle(stick()).borderTopColor, 'rgb(255, 0, 0)');
    await ui.updateJoystickOptions({ joystickSize: 100, joystickBorderOffset: '20px', joystickColor: 'blue', joystickPosition: 'bottom-center' });
  });

  it('forward and back in a perspective view, turning sideways', async function () {
    const start = await el.viewpoint();
    await push(0, -1);
    const ahead = await el.viewpoint();
    const moved: Vec3 = { x: ahead.location.x - start.location.x, y: ahead.location.y - start.location.y, z: ahead.location.z - start.location.z };
    const along = moved.x * start.direction.x + moved.y * start.direction.y + moved.z * start.direction.z;
    assert(dist(ahead.location, start.location) > 0.3 && along > 0, `pushing up moved forward ${along.toFixed(3)}`);
    await push(0, 1);
    const back = await el.viewpoint();
    // Along the view direction, not by distance: how far a push moves depends on how long the browser held it.
    const backwards = (back.location.x - ahead.location.x) * start.direction.x + (back.location.y - ahead.location.y) * start.direction.y + (back.location.z - ahead.location.z) * start.direction.z;
    assert(backwards < -0.3, `pulling down moved back ${backwards.toFixed(3)}`);
    await push(1, 0);
    const turned = await el.viewpoint();
    assert(angle(turned.direction, back.direction) > 3, `pushing right turned ${angle(turned.direction, back.direction).toFixed(1)} degrees`);
    // turning right: the new direction is clockwise seen from above
    const crossZ = back.direction.x * turned.direction.y - back.direction.y * turned.direction.x;
    assert(crossZ < 0, 'turned right');
    await sleep(100);
    assertEqual(dist((await el.viewpoint()).location, turned.location) < 1e-6, true, 'released: the camera stops');
  });

  it('turns slower with a larger joystickRotationClamp', async function () {
    ui.joystickRotationClamp = 1;
    await ui.updateComplete;
    // Turning speeds, degrees per second held: how long a push lasts depends on the mouse's round trips.
    let before = await el.viewpoint();
    let held = await push(1, 0, 700);
    const fast = (angle((await el.viewpoint()).direction, before.direction) * 1000) / held;
    ui.joystickRotationClamp = 4;
    await ui.updateComplete;
    before = await el.viewpoint();
    held = await push(1, 0, 700);
    const slow = (angle((await el.viewpoint()).direction, before.direction) * 1000) / held;
    assert(slow < fast * 0.5, `clamp 4 turned ${slow.toFixed(1)}, clamp 1 ${fast.toFixed(1)} degrees a second`);
    ui.joystickRotationClamp = 2;
    await ui.updateComplete;
  });

  it('orbits an orthogonal view', async function () {
    await el.viewpoint('front');
    await el.viewpoint({ type: 'orthogonal' });
    await until(async () => (await el.viewpoint()).type === 'orthogonal', 'an orthogonal view');
    const box = (await el.boundingBox(null))!;
    const pivot = { x: (box.min.x + box.max.x) / 2, y: (box.min.y + box.max.y) / 2, z: (box.min.z + box.max.z) / 2 };
    const start = await el.viewpoint();
    await push(1, 0, 700);
    const after = await el.viewpoint();
    assertEqual(after.type, 'orthogonal');
    assert(angle(after.direction, start.direction) > 3, `the view turned ${angle(after.direction, start.direction).toFixed(1)} degrees`);
    const r0 = Math.hypot(start.location.x - pivot.x, start.location.y - pivot.y);
    const r1 = Math.hypot(after.location.x - pivot.x, after.location.y - pivot.y);
    assert(Math.abs(r0 - r1) < 0.05 * r0, `orbit keeps the distance to the middle (${r0.toFixed(2)} -> ${r1.toFixed(2)})`);
    await el.viewpoint({ type: 'perspective' });
  });

  it('is shown on a touch device although joystickHidden is true', async function () {
    const w = window as unknown as Record<string, unknown>;
    w.ontouchstart = null; // what a touch device has
    let other: Awaited<ReturnType<typeof createWidget>> | undefined;
    try {
      other = await createWidget(200, 150);
      await other.ui.updateComplete;
      await frames();
      const joystick = other.ui.shadowRoot!.querySelector('.joystick') as HTMLElement;
      assertEqual(other.ui.joystickHidden, true);
      assert(!joystick.hidden, 'shown on a touch device');
      await other.ui.hideJoystick();
      assert(joystick.hidden, 'hideJoystick hides it there too');
    } finally {
      delete w.ontouchstart;
      await removeWidget(other);
    }
  });

  it('works with touch (pointer events of type touch)', async function () {
    const box = stick().getBoundingClientRect();
    const cx = box.left + box.width / 2;
    const cy = box.top + box.height / 2;
    const fire = (type: string, x: number, y: number) => stick().dispatchEvent(new PointerEvent(type, { pointerId: 21, pointerType: 'touch', isPrimary: true, clientX: x, clientY: y, bubbles: true, cancelable: true, composed: true, buttons: type === 'pointerup' ? 0 : 1 }));
    const start = await el.viewpoint();
    fire('pointerdown', cx, cy);
    fire('pointermove', cx, cy - box.height / 2);
    await sleep(600);
    fire('pointerup', cx, cy - box.height / 2);
    assert(dist((await el.viewpoint()).location, start.location) > 0.3, 'a finger on the joystick flew the camera');
    assert(elementPoint(el)[0] > 0, 'the viewer is on the page');
  });
});
