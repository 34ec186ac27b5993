/**
 * The little of jQuery the shim uses, typed structurally so the shim works with any
 * copy the page brings (1.12 to 4.x) and needs no @types/jquery. Everything here exists
 * unchanged in jQuery 1.12.4, 2.2.4, 3.x and 4.0.0.
 */
export interface JQueryEventLike {
  type: string;
  isDefaultPrevented(): boolean;
  preventDefault(): void;
}

export interface JQueryLike {
  length: number;
  [index: number]: HTMLElement;
  trigger(event: JQueryEventLike, args?: unknown[]): JQueryLike;
}

export interface JQueryStaticLike {
  (element: Element): JQueryLike;
  fn: { jquery: string; [name: string]: unknown };
  Event(type: string, props?: object): JQueryEventLike;
  data(element: Element, key: string, value?: unknown): unknown;
}

/** True for a jQuery function (any version); false for other globals named `$`. */
export function isJQuery(value: unknown): value is JQueryStaticLike {
  if (typeof value !== 'function') return false;
  const fn = (value as { fn?: { jquery?: unknown } }).fn;
  return !!fn && typeof fn.jquery === 'string' && typeof (value as { Event?: unknown }).Event === 'function';
}
