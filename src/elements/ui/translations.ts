/**
 * The widget's texts (seed 002 "Viewer widget options and methods": `translations`).
 * Pages may override any key; the values are untrusted and only ever become text nodes.
 */
export interface Translations {
  showAll: string;
  hide: string;
  hideOthers: string;
  makeTranslucent: string;
  isolate: string;
  lookAt: string;
  removeClippingPlanes: string;
  addClippingPlane: string;
  sectionTopAndBottom: string;
  noModelsLoaded: string;
  loading: string;
  defaultBuildingName: string;
  defaultModelName: string;
}

export const DEFAULT_TRANSLATIONS: Readonly<Translations> = Object.freeze({
  showAll: 'Show all',
  hide: 'Hide',
  hideOthers: 'Hide others',
  makeTranslucent: 'Make translucent',
  isolate: 'Isolate',
  lookAt: 'Look at',
  removeClippingPlanes: 'Remove clipping planes',
  addClippingPlane: 'Add clipping plane',
  sectionTopAndBottom: 'Section top and bottom',
  noModelsLoaded: 'No models loaded',
  loading: 'Loading',
  defaultBuildingName: 'Building',
  defaultModelName: 'Model',
});

export const TRANSLATION_KEYS = Object.keys(DEFAULT_TRANSLATIONS) as (keyof Translations)[];

/**
 * The defaults overridden by the known keys of `input` (an object or its JSON text, as a
 * data attribute gives it). Unknown keys and non-string values are ignored.
 */
export function resolveTranslations(input: unknown): Translations {
  let given = input;
  if (typeof given === 'string') {
    try {
      given = JSON.parse(given);
    } catch {
      given = undefined;
    }
  }
  const out: Translations = { ...DEFAULT_TRANSLATIONS };
  if (given && typeof given === 'object') {
    for (const key of TRANSLATION_KEYS) {
      const value = (given as Record<string, unknown>)[key];
      if (typeof value === 'string' || typeof value === 'number') out[key] = String(value);
    }
  }
  return out;
}
