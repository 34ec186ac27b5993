import { BimViewerUi } from '../elements/bim-viewer-ui.js';
import { emit } from '../elements/events.js';
import { createElementPlugin, type CallResult, type Kind } from './element-plugin.js';
import type { JQueryStaticLike } from './jquery-types.js';
import { optionTable, type OptionTable } from './option-coercion.js';

/**
 * `$(el).viewerUI(options)` / `$(el).viewerUI('method', ...args)`: the viewer widget
 * (seed 002 "Viewer widget options and methods") on the page element of a 3D viewer,
 * through the calling convention of element-plugin.ts. The <bim-viewer-ui> is put into
 * that element, beside its <bim-viewer-3d>, and lies over it.
 *
 * Only element code of the widget is imported (the viewers' modules only as types), so
 * dist/viewer.js stays small and works with the 3D bundle already on the page.
 */

const METHODS: Record<string, Kind> = {
  showJoystick: 'action',
  hideJoystick: 'action',
  joystickPosition: 'action',
  updateJoystickOptions: 'action',
  setSpaces: 'action',
  setSpacesVisible: 'action',
  set2dLockedNavigationMode: 'action',
  set2dLockStoreyMode: 'action',
};

export const DATA_KEY_UI = 'bimViewerUi';

/** The widget's option table; `translations` takes an object (or its JSON text) as it is. */
function uiOptions(): OptionTable {
  const base = optionTable(() => BimViewerUi);
  const isTranslations = (name: string) => name.toLowerCase() === 'translations';
  return {
    name: base.name,
    names: base.names,
    coerce(option, raw) {
      if (isTranslations(option)) return raw === undefined || raw === null ? {} : { value: raw };
      return base.coerce(option, raw);
    },
    coerceAll(options) {
      const { translations, ...rest } = options;
      const result = base.coerceAll(rest);
      const key = Object.keys(options).find(isTranslations);
      if (key && options[key] !== undefined && options[key] !== null) result.values.translations = options[key];
      void translations;
      return result;
    },
  };
}

const plugin = createElementPlugin<BimViewerUi>({
  name: 'viewerUI',
  tagName: 'bim-viewer-ui',
  dataKey: DATA_KEY_UI,
  methods: METHODS,
  eventArgs: {},
  options: uiOptions(),
  reportError: (element, type, message) => {
    const target = element.viewerElement ?? element;
    emit(target, 'viewer.error', { type, message });
  },
  special: { joystickPosition: (element, args) => element.setJoystickPosition(args[0] as never) },
  methodsHint: 'the widget methods of the API (showJoystick, hideJoystick, joystickPosition, updateJoystickOptions, setSpaces, setSpacesVisible, set2dLockedNavigationMode, set2dLockStoreyMode)',
});

export type { CallResult };

/** `viewerUI(options)` on a page element (the one holding the 3D viewer). */
export function initViewerUi(host: HTMLElement, options: Record<string, unknown> = {}): BimViewerUi {
  return plugin.init(host, options);
}

/** `viewerUI('method', ...args)` on one page element. */
export function callMethodUi(host: HTMLElement, name: string, args: unknown[]): CallResult {
  return plugin.call(host, name, args);
}

/** The widget of a page element, if there is one. */
export function viewerUiElementOf(host: Element): BimViewerUi | undefined {
  return plugin.elementOf(host);
}

export function installedUiJQueries(): JQueryStaticLike[] {
  return plugin.jQueries();
}

/** Defines `$.fn.viewerUI` on a jQuery (1.12 to 4.x); safe to repeat and on several copies. */
export function installViewerUiPlugin(jQuery: { fn: object }): void {
  plugin.install(jQuery);
}
