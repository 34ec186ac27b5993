import { BimViewer3d } from '../elements/bim-viewer-3d.js';
import { optionTable, type CoercedOptions } from './option-coercion.js';

/**
 * The 3D viewer's options as pages pass them (objects or data attribute strings),
 * read from <bim-viewer-3d>'s own lit properties (see option-coercion.ts).
 */
export { dataAttributes, type CoercedOptions, type OptionProblem, type OptionType } from './option-coercion.js';

export const viewer3dOptions = optionTable(() => BimViewer3d);

/** The element's property name for an option name in any case, or undefined. */
export function optionName(name: string): string | undefined {
  return viewer3dOptions.name(name);
}

/** The option names of the 3D viewer, as the element spells them. */
export function optionNames(): string[] {
  return viewer3dOptions.names();
}

/**
 * Reads one option value. Returns `{value}` or `{error}`. `null`/`undefined` give
 * `{}` (nothing to set).
 */
export function coerceOption(name: string, raw: unknown): { value?: unknown; error?: string } {
  return viewer3dOptions.coerce(name, raw);
}

/**
 * Coerces an options object. Keys that are not options of the 3D viewer (widget options
 * such as enableKeyboard, or data-url) are ignored: pages pass one set of data
 * attributes to the viewer and the widget alike.
 */
export function coerceOptions(options: Record<string, unknown>): CoercedOptions {
  return viewer3dOptions.coerceAll(options);
}
