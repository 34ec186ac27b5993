import { ViewerError } from '../types.js';

/**
 * Navigation maps: which input event runs which camera or viewer action, per device.
 * A map replaces all defaults; every binding whose event matches and whose filters all
 * hold runs in list order, and a cancelled action (a viewer.click listener returning
 * false, say) skips the rest. `{}` disables navigation. docs/navigation.md lists names.
 */
export interface Binding {
  event: string;
  action: string;
  /** One filter name or several; all must hold. */
  filter?: string | string[];
  /** Multiplies the action's amount (speed, distance). */
  scale?: number;
}

export interface NavigationMap {
  mouse?: Binding[];
  touch?: Binding[];
  keyboard?: Binding[];
}

export const MOUSE_EVENTS = ['leftdrag', 'middledrag', 'rightdrag', 'wheel', 'click', 'dblclick', 'contextmenu'] as const;
export const TOUCH_EVENTS = ['drag', 'twofingerdrag', 'pinch', 'tap', 'doubletap'] as const;
export const MOVEMENTS = ['moveForward', 'moveBackward', 'moveLeft', 'moveRight', 'moveUp', 'moveDown', 'rotateLeft', 'rotateRight', 'rotateUp', 'rotateDown'] as const;
export type Movement = (typeof MOVEMENTS)[number];
/** Actions of drags and the wheel. */
export const MOTION_ACTIONS = ['orbit', 'pan', 'pivot', 'zoom'] as const;
/** Actions of clicks and taps. */
export const POINT_ACTIONS = ['select', 'lookAt', 'contextmenu'] as const;
export const FILTERS = ['shift', 'ctrl', 'alt', 'meta', 'nomodifier', 'perspective', 'orthogonal', 'object', 'empty'] as const;
/** Keyboard events are key names as KeyboardEvent.key gives them, in lower case ('w', 'arrowup', 'pagedown'). */

const drags = (left: string, right: string): Binding[] => [
  { event: 'leftdrag', action: left },
  { event: 'rightdrag', action: right },
  { event: 'middledrag', action: 'pan' },
  { event: 'wheel', action: 'zoom' },
  { event: 'click', action: 'select' },
  { event: 'dblclick', action: 'lookAt' },
  { event: 'contextmenu', action: 'contextmenu' },
];

const touch = (one: string): Binding[] => [
  { event: 'drag', action: one },
  { event: 'twofingerdrag', action: 'pan' },
  { event: 'pinch', action: 'zoom' },
  { event: 'tap', action: 'select' },
  { event: 'doubletap', action: 'lookAt' },
];

/** The predefined modes: what the left drag (and one finger) does. */
export const MODES: Record<'orbit' | 'pan' | 'pivot', Required<NavigationMap>> = {
  orbit: { mouse: drags('orbit', 'pan'), touch: touch('orbit'), keyboard: [] },
  pan: { mouse: drags('pan', 'orbit'), touch: touch('pan'), keyboard: [] },
  pivot: { mouse: drags('pivot', 'pan'), touch: touch('pivot'), keyboard: [] },
};

/** Checks a custom map and returns it complete (missing devices do nothing). */
export function parseNavigationMap(value: unknown): Required<NavigationMap> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ViewerError('argument', 'setNavigationMode: expected "orbit", "pan", "pivot" or a map {mouse, touch, keyboard}');
  }
  const map = value as Record<string, unknown>;
  for (const key of Object.keys(map)) {
    if (!['mouse', 'touch', 'keyboard'].includes(key)) throw new ViewerError('argument', `setNavigationMode: unknown device "${key}" (mouse, touch, keyboard)`);
  }
  const device = (name: 'mouse' | 'touch' | 'keyboard', events: readonly string[] | null, actions: readonly string[]): Binding[] => {
    const list = map[name] ?? [];
    if (!Array.isArray(list)) throw new ViewerError('argument', `setNavigationMode: ${name} must be an array of {event, action, filter, scale}`);
    return list.map((b: Binding, i: number) => {
      const where = `setNavigationMode: ${name}[${i}]`;
      if (typeof b?.event !== 'string' || typeof b?.action !== 'string') throw new ViewerError('argument', `${where} needs an event and an action`);
      const event = b.event.toLowerCase();
      if (events && !events.includes(event)) throw new ViewerError('argument', `${where}: unknown event "${b.event}" (${events.join(', ')})`);
      if (!actions.includes(b.action)) throw new ViewerError('argument', `${where}: unknown action "${b.action}" (${actions.join(', ')})`);
      const filters = b.filter === undefined ? [] : Array.isArray(b.filter) ? b.filter : [b.filter];
      for (const f of filters) {
        if (!FILTERS.includes(String(f).toLowerCase() as (typeof FILTERS)[number])) throw new ViewerError('argument', `${where}: unknown filter "${f}" (${FILTERS.join(', ')})`);
      }
      if (b.scale !== undefined && !Number.isFinite(b.scale)) throw new ViewerError('argument', `${where}: scale must be a number`);
      return { event, action: b.action, filter: filters.map((f) => String(f).toLowerCase()), scale: b.scale ?? 1 };
    });
  };
  return {
    mouse: device('mouse', MOUSE_EVENTS, [...MOTION_ACTIONS, ...POINT_ACTIONS]),
    touch: device('touch', TOUCH_EVENTS, [...MOTION_ACTIONS, ...POINT_ACTIONS]),
    keyboard: device('keyboard', null, [...MOVEMENTS]),
  };
}

/** What the filters look at. */
export interface FilterContext {
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  orthogonal: boolean;
  /** Whether an object is under the pointer (asked only when a filter needs it). */
  onObject: () => boolean;
}

export function filtersHold(binding: Binding, c: FilterContext): boolean {
  const filters = (binding.filter ?? []) as string[];
  return filters.every((f) => {
    switch (f) {
      case 'shift': return c.shiftKey;
      case 'ctrl': return c.ctrlKey;
      case 'alt': return c.altKey;
      case 'meta': return c.metaKey;
      case 'nomodifier': return !c.shiftKey && !c.ctrlKey && !c.altKey && !c.metaKey;
      case 'perspective': return !c.orthogonal;
      case 'orthogonal': return c.orthogonal;
      case 'object': return c.onObject();
      case 'empty': return !c.onObject();
      default: return false;
    }
  });
}
