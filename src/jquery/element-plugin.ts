import type { ViewerErrorType } from '../core/types.js';
import { isJQuery, type JQueryLike, type JQueryStaticLike } from './jquery-types.js';
import type { OptionTable } from './option-coercion.js';

/**
 * The documented jQuery calling convention (seed 002, COMPAT.md) on a custom element,
 * shared by `$.fn.viewer` (viewer-plugin.ts) and `$.fn.viewer2d` (viewer2d-plugin.ts).
 * No viewer logic lives here:
 *
 * - `plugin(options?)` creates (or adopts) the element and sets its options;
 * - `plugin('method', ...args)` calls the element method of that name in any case;
 * - calls chain, except reads without a callback, which return the element's answer;
 * - a trailing function is a callback called with the value, `this` = the page's element;
 * - the element's native events are re-triggered as jQuery events
 *   (`fn(event, ...args)`), and `return false` cancels the native event.
 */

/** How a method answers when the page passes no callback. */
export type Kind =
  | 'action' // chainable: returns the jQuery object
  | 'value' // yields a value: returns the element's answer (a value or a promise)
  | ((args: unknown[]) => boolean); // reads when this is true (e.g. first argument null), else sets

export const readsWhenFirstIsNull = (args: unknown[]) => args[0] === null || args[0] === undefined;

export interface CallResult {
  /** True when the plugin should return `value` instead of the jQuery object. */
  returns: boolean;
  value?: unknown;
}

export interface ElementPluginSpec<E extends HTMLElement> {
  /** The plugin's name on `$.fn` and in messages: `viewer`, `viewer2d`. */
  name: string;
  tagName: string;
  /** jQuery data key under which the page's element keeps its viewer element. */
  dataKey: string;
  /** The documented methods and how each answers (names matched in any case). */
  methods: Record<string, Kind>;
  /** Per event name, the positional arguments for jQuery handlers. */
  eventArgs: Record<string, (detail: never) => unknown[]>;
  options: OptionTable;
  /** Fires the element's error event. */
  reportError(element: E, type: ViewerErrorType, message: string): void;
  /** Methods whose callback runs once per item of the answer (each, eachSelected); `return false` stops. */
  perItem?: readonly string[];
  /** Methods the plugin answers itself (documented names that are not element methods). */
  special?: Record<string, (element: E, args: unknown[]) => unknown>;
  /** Where the page can read what the methods are, for the unknown-method message. */
  methodsHint: string;
  /** Answers are handed out as promises (the 3D viewer's methods all return promises). */
  promiseAnswers?: boolean;
  /** The element reports the errors its methods throw (so the plugin does not again). */
  reportsThrownErrors?: boolean;
}

export interface ElementPlugin<E extends HTMLElement> {
  /** Defines `$.fn[name]` on a jQuery (1.12 to 4.x); safe on several copies and to repeat. */
  install(jQuery: { fn: object }): void;
  /** `plugin(options)`: creates the viewer when needed and sets the given options. */
  init(host: HTMLElement, options?: Record<string, unknown>): E;
  /** `plugin('method', ...args)` on one page element. */
  call(host: HTMLElement, name: string, args: unknown[]): CallResult;
  /** The viewer element behind a page element, if the plugin (or markup) made one. */
  elementOf(host: Element): E | undefined;
  /** The jQuery copies the plugin is installed on. */
  jQueries(): JQueryStaticLike[];
}

interface State<E> {
  /** The page's element: the div (or the viewer element itself). */
  host: HTMLElement;
  element: E;
}

const noop = () => undefined;

/** Reports an error thrown by a page callback without breaking the viewer's flow. */
function reportLater(error: unknown) {
  setTimeout(() => {
    throw error;
  });
}

function isPlainOptions(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function createElementPlugin<E extends HTMLElement>(spec: ElementPluginSpec<E>): ElementPlugin<E> {
  const methodNames = new Map(Object.keys(spec.methods).map((name) => [name.toLowerCase(), name]));
  const states = new WeakMap<Element, State<E>>();
  /** The state each viewer element belongs to: one relay per element, however it is addressed. */
  const owners = new WeakMap<E, State<E>>();
  /** Every jQuery copy the plugin is installed on; events are re-triggered through each. */
  const copies = new Set<JQueryStaticLike>();
  const perItem = new Set(spec.perItem ?? []);

  const isViewerElement = (element: Element): element is E => element.localName === spec.tagName;

  function elementOf(host: Element): E | undefined {
    const state = states.get(host);
    if (state) return state.element;
    if (isViewerElement(host)) return host;
    for (const child of Array.from(host.children)) if (isViewerElement(child)) return child;
    return undefined;
  }

  function fail(state: State<E>, type: ViewerErrorType, message: string) {
    console.warn(`[${spec.name}] ${message}`);
    spec.reportError(state.element, type, message);
  }

  /** Re-dispatches a native event as a jQuery event on the page's element. */
  function relay(state: State<E>, name: string, native: Event) {
    const detail = (native as CustomEvent).detail;
    const toArgs = spec.eventArgs[name] as (d: unknown) => unknown[];
    for (const $ of copies) {
      // 'viewer.select' is type 'viewer' with namespace 'select' to jQuery, so handlers
      // bound with .bind('viewer.select') never see the native event: no double delivery.
      const event = $.Event(name, { detail });
      try {
        $(state.host).trigger(event, toArgs(detail));
      } catch (error) {
        reportLater(error);
      }
      if (event.isDefaultPrevented()) native.preventDefault();
    }
  }

  /** Creates (or adopts) the viewer element of a page element and wires its events. */
  function ensure(host: HTMLElement): State<E> {
    let state = states.get(host) ?? (isViewerElement(host) ? owners.get(host) : undefined);
    if (state) return state; // (a viewer element a div already owns answers for that div)
    let element = elementOf(host);
    if (!element) {
      element = document.createElement(spec.tagName) as E;
      element.style.width = '100%';
      element.style.height = '100%';
      host.appendChild(element);
    }
    const owner = owners.get(element);
    if (owner) return owner;
    state = { host, element };
    states.set(host, state);
    owners.set(element, state);
    for (const name of Object.keys(spec.eventArgs)) {
      const current = state;
      element.addEventListener(name, (event) => relay(current, name, event));
    }
    for (const $ of copies) $.data(host, spec.dataKey, element);
    return state;
  }

  function init(host: HTMLElement, options: Record<string, unknown> = {}): E {
    const state = ensure(host);
    const { values, problems } = spec.options.coerceAll(options);
    Object.assign(state.element, values);
    for (const problem of problems) fail(state, 'argument', `${spec.name}(options): ${problem.message}`);
    return state.element;
  }

  /** Calls back with the settled value (`this` = the page's element); errors stay quiet. */
  function deliver(state: State<E>, answer: unknown, callback?: (...a: unknown[]) => unknown) {
    Promise.resolve(answer).then((value) => {
      if (!callback) return;
      try {
        callback.call(state.host, value);
      } catch (error) {
        reportLater(error);
      }
    }, noop); // the element already reported the error
  }

  /** An option used as a method: `viewer('fieldOfView', 80)`, `viewer('fieldOfView', null, cb)`. */
  function callOption(state: State<E>, prop: string, args: unknown[], callback?: (...a: unknown[]) => unknown): CallResult {
    const element = state.element as unknown as Record<string, unknown>;
    if (args[0] === null || args[0] === undefined) {
      const value = Promise.resolve(element[prop]);
      if (callback) {
        deliver(state, value, callback);
        return { returns: false };
      }
      return { returns: true, value };
    }
    const { value, error } = spec.options.coerce(prop, args[0]);
    if (error) fail(state, 'argument', `${spec.name}('${prop}'): ${error}`);
    else element[prop] = value;
    if (callback) deliver(state, element[prop], callback);
    return { returns: false };
  }

  function call(host: HTMLElement, name: string, input: unknown[]): CallResult {
    const state = ensure(host);
    const args = input.slice();
    const callback = typeof args[args.length - 1] === 'function' ? (args.pop() as (...a: unknown[]) => unknown) : undefined;

    const canonical = methodNames.get(name.toLowerCase());
    if (!canonical) {
      const prop = spec.options.name(name);
      if (prop) return callOption(state, prop, args, callback);
      fail(state, 'method', `${spec.name}('${name}'): unknown method (names are matched in any case; see ${spec.methodsHint})`);
      return { returns: false };
    }
    const element = state.element as unknown as Record<string, unknown>;
    const special = spec.special?.[canonical];
    const method = special ? (...a: unknown[]) => special(state.element, a) : element[canonical];
    if (typeof method !== 'function') {
      fail(state, 'method', `${spec.name}('${canonical}') is part of the documented API but not available in this version of the viewer`);
      return { returns: false };
    }

    let answer: unknown;
    try {
      // each/eachSelected: the page's callback runs per item with `this` = the page's element.
      answer = perItem.has(canonical)
        ? (method as () => unknown).call(element)
        : (method as (...a: unknown[]) => unknown).apply(element, args);
    } catch (error) {
      const reported = spec.reportsThrownErrors && error instanceof Error && error.name === 'ViewerError';
      if (!reported) fail(state, 'method', `${spec.name}('${canonical}'): ${(error as Error)?.message ?? String(error)}`);
      return { returns: false };
    }
    if (spec.promiseAnswers) answer = Promise.resolve(answer);
    if (answer instanceof Promise) answer.catch(noop); // rejections are reported by the element

    if (callback) {
      if (perItem.has(canonical)) {
        Promise.resolve(answer).then((ids) => {
          for (const id of ids as unknown[]) {
            try {
              if (callback.call(state.host, id) === false) break;
            } catch (error) {
              reportLater(error);
            }
          }
        }, noop);
      } else {
        deliver(state, answer, callback);
      }
      return { returns: false };
    }
    const kind = spec.methods[canonical];
    const reads = kind === 'value' || (typeof kind === 'function' && kind(args));
    return reads ? { returns: true, value: answer } : { returns: false };
  }

  function readsWithoutCallback(name: string, args: unknown[]): boolean {
    if (typeof args[args.length - 1] === 'function') return false;
    const kind = spec.methods[methodNames.get(name.toLowerCase()) ?? ''];
    return kind === 'value' || (typeof kind === 'function' && kind(args));
  }

  function install(jQuery: { fn: object }): void {
    // Typed loosely so that any jQuery typing (e.g. @types/jquery's JQueryStatic) is accepted.
    if (!isJQuery(jQuery)) throw new TypeError(`installing $.fn.${spec.name}: expected a jQuery function`);
    const $ = jQuery;
    copies.add($);

    function plugin(this: JQueryLike, ...args: unknown[]): unknown {
      const first = args[0];
      const hosts: HTMLElement[] = [];
      for (let i = 0; i < this.length; i++) if (this[i] && this[i].nodeType === 1) hosts.push(this[i]);

      if (first === undefined || first === null || isPlainOptions(first)) {
        for (const host of hosts) {
          init(host, (first as Record<string, unknown>) ?? {});
          $.data(host, spec.dataKey, elementOf(host));
        }
        return this;
      }
      if (typeof first !== 'string') {
        for (const host of hosts) {
          fail(ensure(host), 'method', `${spec.name}(${String(first)}): expected a method name (string) or an options object`);
        }
        return this;
      }
      let result: CallResult | undefined;
      for (const host of hosts) {
        const r = call(host, first, args.slice(1));
        $.data(host, spec.dataKey, elementOf(host));
        result ??= r;
      }
      // Reads answer for the first element, like jQuery getters; undefined on an empty set.
      if (hosts.length === 0) return methodNames.has(first.toLowerCase()) && readsWithoutCallback(first, args.slice(1)) ? undefined : this;
      return result?.returns ? result.value : this;
    }
    ($.fn as Record<string, unknown>)[spec.name] = plugin;
  }

  return { install, init, call, elementOf, jQueries: () => [...copies] };
}
