// Helpers for tests that use the built bundles the way a page does: script tags, globals,
// another origin.

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until it gives something truthy. */
export async function waitFor<T>(read: () => T, what: string, timeout = 90_000): Promise<NonNullable<T>> {
  const start = performance.now();
  for (;;) {
    const value = read();
    if (value) return value as NonNullable<T>;
    if (performance.now() - start > timeout) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await sleep(25);
  }
}

/** Adds a script tag and resolves once it ran. */
export function addScript(src: string, doc: Document = document): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`could not load ${src}`));
    doc.head.append(script);
  });
}

/** The same server under its other loopback name: a different origin. */
export function otherOrigin(): string {
  const url = new URL(location.href);
  url.hostname = url.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return url.origin;
}

/**
 * A same-origin iframe whose page is `body`; its scripts may come from elsewhere. Runs
 * `check` with the frame's window and removes the frame afterwards.
 */
export async function inFrame(body: string, check: (frame: Window & Record<string, any>) => Promise<void>) { // eslint-disable-line @typescript-eslint/no-explicit-any
  const iframe = document.createElement('iframe');
  iframe.style.cssText = 'width:420px;height:320px;border:0';
  iframe.srcdoc = `<!doctype html><html><head></head><body>${body}</body></html>`;
  document.body.append(iframe);
  try {
    await check(iframe.contentWindow as Window & Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any
  } finally {
    iframe.remove();
  }
}
