// Browser side of the `compare-screenshot` server command (test/support/screenshot-plugin.mjs).
import { executeServerCommand } from '@web/test-runner-commands';

export interface ScreenshotOptions {
  /** Fraction of pixels allowed to differ (0..1). Default 0.01. */
  tolerance?: number;
  /** Per-pixel colour distance (pixelmatch threshold, 0..1). Default 0.1. */
  threshold?: number;
  /** Compare with this image (a PNG data URL) instead of test/screenshots/expected/<name>.png. */
  expectedDataUrl?: string;
}

export interface ScreenshotResult {
  ok: boolean;
  /** true when the expected image was missing and has been written (UPDATE_SCREENSHOTS=1). */
  created?: boolean;
  /** Fraction of differing pixels (1 when the sizes differ). */
  mismatch?: number;
  message?: string;
  /** Paths relative to the project root. */
  expected?: string;
  actual?: string;
  diff?: string;
}

/** A PNG data URL, or a canvas to read one from (a WebGL canvas needs
 * `preserveDrawingBuffer: true`, or must be read right after rendering). */
export type ScreenshotSource = string | HTMLCanvasElement;

function toDataUrl(source: ScreenshotSource): string {
  return typeof source === 'string' ? source : source.toDataURL('image/png');
}

/** Compares against test/screenshots/expected/<name>.png; never throws on a mismatch. */
export async function compareScreenshot(
  name: string,
  source: ScreenshotSource,
  options: ScreenshotOptions = {},
): Promise<ScreenshotResult> {
  const result = await executeServerCommand<ScreenshotResult, unknown>('compare-screenshot', {
    name,
    dataUrl: toDataUrl(source),
    ...options,
  });
  if (!result || typeof result !== 'object') {
    throw new Error('compare-screenshot returned nothing: is compareScreenshotPlugin() in web-test-runner.config.mjs?');
  }
  return result;
}

/** Like compareScreenshot, but throws an Error with the comparison's message unless ok. */
export async function expectScreenshot(
  name: string,
  source: ScreenshotSource,
  options: ScreenshotOptions = {},
): Promise<ScreenshotResult> {
  const result = await compareScreenshot(name, source, options);
  if (!result.ok) throw new Error(result.message ?? `screenshot "${name}" does not match`);
  return result;
}
