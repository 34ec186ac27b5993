/**
 * `bim-viewers/react`: the viewers as React components, and JSX types for the elements.
 *
 *   import { BimViewer3d } from 'bim-viewers/react';
 *   <BimViewer3d ref={viewer} selectedColor="#ff8800" onViewerSelect={(e) => setSelected(e.detail.selected)} />
 *
 * The components are @lit/react's wrappers: properties are set as properties, and each
 * event is an `on...` prop named from its documented name (`viewer.select` ->
 * `onViewerSelect`, `viewer2d.markerclick` -> `onViewer2dMarkerclick`), its detail typed.
 * The elements themselves are also typed as JSX intrinsic elements (`<bim-viewer-3d>`):
 * React 19 listens for a prop `on` + an event's name, but JSX cannot spell the dot of
 * `onviewer.select`, so events there go through `ref` and addEventListener (typed too).
 */
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import {
  BimViewer2d as Viewer2dElement,
  BimViewer3d as Viewer3dElement,
  BimViewerUi as ViewerUiElement,
  VIEWER2D_EVENTS,
  VIEWER3D_EVENTS,
  type ElementProperties,
  type Viewer2dEventMap,
  type Viewer3dEventMap,
} from '../index.js';

/** `viewer.select` -> `onViewerSelect`: each dotted part capitalised. */
export type ReactEventProp<N extends string> = N extends `${infer A}.${infer B}` ? `on${Capitalize<A>}${Capitalize<B>}` : `on${Capitalize<N>}`;

/** An element's events as @lit/react's `events` option: React prop name -> event name, detail typed. */
export type ReactEvents<M> = { [K in keyof M & string as ReactEventProp<K>]: EventName<CustomEvent<M[K]>> };

export function reactEvents<M>(names: readonly (keyof M & string)[]): ReactEvents<M> {
  const prop = (name: string) => `on${name.split('.').map((part) => part[0].toUpperCase() + part.slice(1)).join('')}`;
  return Object.fromEntries(names.map((name) => [prop(name), name])) as unknown as ReactEvents<M>;
}

export const BimViewer3d = createComponent({
  react: React,
  tagName: 'bim-viewer-3d',
  elementClass: Viewer3dElement,
  events: reactEvents<Viewer3dEventMap>(VIEWER3D_EVENTS),
  displayName: 'BimViewer3d',
});

export const BimViewer2d = createComponent({
  react: React,
  tagName: 'bim-viewer-2d',
  elementClass: Viewer2dElement,
  events: reactEvents<Viewer2dEventMap>(VIEWER2D_EVENTS),
  displayName: 'BimViewer2d',
});

export const BimViewerUi = createComponent({
  react: React,
  tagName: 'bim-viewer-ui',
  elementClass: ViewerUiElement,
  displayName: 'BimViewerUi',
});

/** React 19's listeners on custom elements: a prop `on` + the event's exact name. */
type DomEventProps<M> = { [K in keyof M & string as `on${K}`]?: (event: CustomEvent<M[K]>) => void };

export type IntrinsicElementProps<E extends HTMLElement, M = object> =
  ElementProperties<E> & DomEventProps<M> & React.HTMLAttributes<E> & React.RefAttributes<E> & { class?: string };

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'bim-viewer-3d': IntrinsicElementProps<Viewer3dElement, Viewer3dEventMap>;
      'bim-viewer-2d': IntrinsicElementProps<Viewer2dElement, Viewer2dEventMap>;
      'bim-viewer-ui': IntrinsicElementProps<ViewerUiElement>;
    }
  }
}
