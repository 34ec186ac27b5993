// Minimal assertions for browser tests (no chai). Every helper throws an Error whose
// message says what was expected and what was seen.

export class AssertionError extends Error {
  override name = 'AssertionError';
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const arr = Array.from(value as unknown as ArrayLike<number>);
    const head = arr.slice(0, 20).join(', ');
    return `${value.constructor.name}(${arr.length}) [${head}${arr.length > 20 ? ', ...' : ''}]`;
  }
  try {
    const json = JSON.stringify(value, (_k, v) =>
      v instanceof Map ? { Map: [...v] } : v instanceof Set ? { Set: [...v] } : v,
    );
    if (json === undefined) return String(value);
    return json.length > 400 ? `${json.slice(0, 400)}...` : json;
  } catch {
    return String(value);
  }
}

function fail(message: string | undefined, detail: string): never {
  throw new AssertionError(message ? `${message}: ${detail}` : detail);
}

/** Throws unless `condition` is truthy. */
export function assert(condition: unknown, message = 'assertion failed'): asserts condition {
  if (!condition) fail(undefined, message);
}

/** Strict equality (Object.is, so NaN equals NaN and 0 differs from -0). */
export function assertEqual<T>(actual: T, expected: T, message?: string): void {
  if (!Object.is(actual, expected)) fail(message, `expected ${show(expected)}, got ${show(actual)}`);
}

/** |actual - expected| <= epsilon. */
export function assertAlmostEqual(actual: number, expected: number, epsilon = 1e-6, message?: string): void {
  if (!(Math.abs(actual - expected) <= epsilon)) {
    fail(message, `expected ${expected} ± ${epsilon}, got ${actual}`);
  }
}

function deepDiff(a: unknown, b: unknown, at: string): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return `at ${at}: expected ${show(b)}, got ${show(a)}`;
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) {
    return `at ${at}: expected a ${b.constructor?.name ?? 'null-prototype object'}, got a ${a.constructor?.name ?? 'null-prototype object'}`;
  }
  if (a instanceof Date) return a.getTime() === (b as Date).getTime() ? undefined : `at ${at}: expected ${show(b)}, got ${show(a)}`;
  if (a instanceof Map || a instanceof Set) {
    return deepDiff([...a], [...(b as Map<unknown, unknown> | Set<unknown>)], `${at}(entries)`);
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (Array.isArray(a) || ArrayBuffer.isView(a)) {
    const la = (a as ArrayLike<unknown>).length;
    const lb = (b as ArrayLike<unknown>).length;
    if (la !== lb) return `at ${at}: expected length ${lb}, got ${la}`;
  }
  for (const k of kb) if (!(k in a)) return `at ${at}.${k}: missing (expected ${show((b as Record<string, unknown>)[k])})`;
  for (const k of ka) {
    if (!(k in b)) return `at ${at}.${k}: unexpected property (value ${show((a as Record<string, unknown>)[k])})`;
    const d = deepDiff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
    if (d) return d;
  }
  return undefined;
}

/** Structural equality of plain objects, arrays, typed arrays, Maps, Sets and Dates. */
export function assertDeepEqual<T>(actual: T, expected: T, message?: string): void {
  const d = deepDiff(actual, expected, '$');
  if (d) fail(message, `${d}\n  expected: ${show(expected)}\n  got:      ${show(actual)}`);
}

/**
 * Awaits `promise` (or calls `fn` and awaits its result) and throws unless it rejects.
 * `matcher`: a RegExp or substring tested against the error message, or a function that
 * returns false (or throws) for an unacceptable error. Returns the rejection reason.
 */
export async function assertRejects(
  promise: Promise<unknown> | (() => unknown),
  matcher?: RegExp | string | ((error: unknown) => boolean | void),
  message?: string,
): Promise<unknown> {
  let error: unknown;
  let rejected = false;
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (e) {
    rejected = true;
    error = e;
  }
  if (!rejected) fail(message, 'expected a rejection, but it resolved');
  const text = error instanceof Error ? error.message : String(error);
  if (matcher instanceof RegExp) {
    if (!matcher.test(text)) fail(message, `rejected with ${show(error)}, which does not match ${matcher}`);
  } else if (typeof matcher === 'string') {
    if (!text.includes(matcher)) fail(message, `rejected with ${show(error)}, which does not contain ${show(matcher)}`);
  } else if (typeof matcher === 'function') {
    if (matcher(error) === false) fail(message, `rejected with ${show(error)}, which the matcher refused`);
  }
  return error;
}
