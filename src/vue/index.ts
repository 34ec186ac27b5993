/**
 * `bim-viewers/vue`: the viewers' tags for Vue's compiler, and typed global components.
 *
 *   // vite.config.ts
 *   import { isCustomElement } from 'bim-viewers/vue';
 *   vue({ template: { compilerOptions: { isCustomElement } } })
 *
 *   // any .ts file of the app (types only)
 *   import type {} from 'bim-viewers/vue';
 *
 * Templates then type-check the elements' properties (`:selected-color`, `:field-of-view`)
 * with vue-tsc. Vue reads a dot after `@` as a modifier, so the documented events
 * (`viewer.select`) are bound with the object form, typed by `Viewer3dListeners`:
 *   <bim-viewer-3d v-on="listeners" />   const listeners: Viewer3dListeners = { 'viewer.select': (e) => ... }
 * This module's code is that one function: importing it in a vite config loads no viewer.
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { BimViewer2d, BimViewer3d, BimViewerUi, CustomEvents, ElementProperties, Viewer2dEventMap, Viewer3dEventMap } from '../index.js';

const TAGS = new Set(['bim-viewer-3d', 'bim-viewer-2d', 'bim-viewer-ui']);

/** For Vue's `compilerOptions.isCustomElement`: true for the viewers' tags. */
export function isCustomElement(tag: string): boolean {
  return TAGS.has(tag);
}

/** A custom element as vue-tsc reads a component: props from `$props`, events from `$emit`. */
export type VueCustomElement<E extends HTMLElement, M = object> = new () => E & {
  /** @deprecated For template type checks only. */
  $props: HTMLAttributes & ElementProperties<E> & PublicProps;
  /** @deprecated For template type checks only. */
  $emit: EmitFn<{ [K in keyof M]: (event: CustomEvents<M>[K]) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
    'bim-viewer-3d': VueCustomElement<BimViewer3d, Viewer3dEventMap>;
    'bim-viewer-2d': VueCustomElement<BimViewer2d, Viewer2dEventMap>;
    'bim-viewer-ui': VueCustomElement<BimViewerUi>;
  }
}
