/* eslint-disable @typescript-eslint/no-explicit-any */
/** A jQuery of any major (1.12, 2.x, 4.x): the tests load all three into one page. */
export type JQ = any;

/** One jQuery event as a handler saw it: the event, the positional arguments, `this`. */
export interface Seen {
  event: any;
  args: unknown[];
  self: unknown;
}

/** The next jQuery event `name` on `host`, bound and unbound with this jQuery. */
export function nextJqueryEvent($: JQ, host: Element, name: string, timeout: number): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      $(host).off(name, handler);
      reject(new Error(`no ${name} within ${timeout} ms`));
    }, timeout);
    function handler(this: unknown, event: any, ...args: unknown[]) {
      clearTimeout(timer);
      $(host).off(name, handler);
      resolve({ event, args, self: this });
    }
    $(host).on(name, handler);
  });
}
