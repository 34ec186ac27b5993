import type { BimViewer3d } from '../bim-viewer-3d.js';
import type { Movement } from '../../core/scene/navigation-map.js';
import type { ViewName } from '../../core/types.js';
import type { ObjectActions } from './actions.js';

/**
 * The widget's keyboard shortcuts (seed 002 "Keyboard shortcuts", COMPAT.md
 * "Interaction"), on while `enableKeyboard` is. Keys act only while the viewer has the
 * focus (the listener is on the viewer element, where its canvas's key events arrive)
 * and never while typing in a form field or editable text.
 *
 *   g show selected; Shift+g or o show all; h hide; Delete removes the selected clipping
 *   plane (the viewer does that itself) or else hides the selection; Shift+h hide others;
 *   t translucent; Shift+t or i others translucent; l look at;
 *   0 home, 1 back, 2 left, 3 front, 4 right, 5 top;
 *   held: w/ArrowUp forward, s/ArrowDown back, a/ArrowLeft left, d/ArrowRight right,
 *   x or Shift+ArrowUp up, c, End or Shift+ArrowDown down, q/Insert turn left,
 *   e/Home turn right, r/PageUp look up, f/PageDown look down.
 */

const NAMED_VIEWS: Record<string, ViewName> = { '0': 'home', '1': 'back', '2': 'left', '3': 'front', '4': 'right', '5': 'top' };

/** The movement a key holds (key in lower case), given Shift. */
export function movementOf(key: string, shift: boolean): Movement | undefined {
  switch (key) {
    case 'w': return 'moveForward';
    case 's': return 'moveBackward';
    case 'a': case 'arrowleft': return 'moveLeft';
    case 'd': case 'arrowright': return 'moveRight';
    case 'arrowup': return shift ? 'moveUp' : 'moveForward';
    case 'arrowdown': return shift ? 'moveDown' : 'moveBackward';
    case 'x': return 'moveUp';
    case 'c': case 'end': return 'moveDown';
    case 'q': case 'insert': return 'rotateLeft';
    case 'e': case 'home': return 'rotateRight';
    case 'r': case 'pageup': return 'rotateUp';
    case 'f': case 'pagedown': return 'rotateDown';
    default: return undefined;
  }
}

/** True when the key event comes from a place where the user types. */
export function isTyping(event: Event): boolean {
  const origin = event.composedPath()[0] as HTMLElement | undefined;
  if (!origin || !(origin instanceof HTMLElement)) return false;
  if (origin.isContentEditable) return true;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(origin.tagName);
}

export class KeyboardShortcuts {
  private held = new Map<string, Movement>();
  private target?: BimViewer3d;

  constructor(
    private readonly actions: ObjectActions,
    private readonly selected: () => Promise<string[]>,
  ) {}

  /** Listens on `viewer` (or stops listening when undefined). */
  attach(viewer: BimViewer3d | undefined) {
    if (viewer === this.target) return;
    this.detach();
    this.target = viewer;
    if (!viewer) return;
    const current = viewer;
    const onDown = (e: Event) => this.down(current, e as KeyboardEvent);
    const onUp = (e: Event) => this.up(current, e as KeyboardEvent);
    const onBlur = () => this.release(current);
    viewer.addEventListener('keydown', onDown);
    viewer.addEventListener('keyup', onUp);
    viewer.addEventListener('focusout', onBlur);
    this.off = () => {
      viewer.removeEventListener('keydown', onDown);
      viewer.removeEventListener('keyup', onUp);
      viewer.removeEventListener('focusout', onBlur);
      this.release(current);
    };
  }

  private off?: () => void;

  detach() {
    this.off?.();
    this.off = undefined;
    this.target = undefined;
  }

  private release(viewer: BimViewer3d) {
    for (const movement of this.held.values()) void viewer.keyDown(movement, false).catch(() => undefined);
    this.held.clear();
  }

  private down(viewer: BimViewer3d, e: KeyboardEvent) {
    if (isTyping(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    const key = e.key.toLowerCase();
    const movement = movementOf(key, e.shiftKey);
    if (movement) {
      e.preventDefault();
      const before = this.held.get(key);
      if (before === movement) return; // key repeat
      if (before) void viewer.keyDown(before, false).catch(() => undefined);
      this.held.set(key, movement);
      void viewer.keyDown(movement, true).catch(() => undefined);
      return;
    }
    if (e.repeat) return;
    const view = NAMED_VIEWS[e.key];
    if (view) {
      e.preventDefault();
      void viewer.viewpoint(view).catch(() => undefined);
      return;
    }
    const withSelection = (op: (ids: string[]) => Promise<void>) => {
      e.preventDefault();
      void this.selected().then(op);
    };
    switch (key) {
      case 'g':
        if (e.shiftKey) { e.preventDefault(); void this.actions.showAll(); } else withSelection(this.actions.show);
        break;
      case 'o': e.preventDefault(); void this.actions.showAll(); break;
      case 'h': withSelection(e.shiftKey ? this.actions.hideOthers : this.actions.hide); break;
      case 'delete':
        // The viewer removes a selected clipping plane itself and marks the event handled.
        if (!e.defaultPrevented) withSelection(this.actions.hide);
        break;
      case 't': withSelection(e.shiftKey ? this.actions.translucentOthers : this.actions.translucent); break;
      case 'i': withSelection(this.actions.translucentOthers); break;
      case 'l': withSelection(this.actions.lookAt); break;
      default: break;
    }
  }

  private up(viewer: BimViewer3d, e: KeyboardEvent) {
    const key = e.key.toLowerCase();
    const movement = this.held.get(key);
    if (movement) {
      this.held.delete(key);
      void viewer.keyDown(movement, false).catch(() => undefined);
    }
  }
}
