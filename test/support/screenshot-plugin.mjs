// web-test-runner server command `compare-screenshot`: compares a PNG data URL from the
// browser with test/screenshots/expected/<name>.png (pngjs + pixelmatch).
//
// payload: { name, dataUrl, tolerance = 0.01 (fraction of pixels allowed to differ),
//            threshold = 0.1 (pixelmatch per-pixel colour distance, 0..1),
//            expectedDataUrl (optional: compare with this image instead of a file; on a
//            mismatch it is written beside the actual one as <name>.expected.png) }
// result:  { ok: true, mismatch, expected }                         images match
//          { ok: true, created: true, expected }                    no expected image and
//                                                                   UPDATE_SCREENSHOTS=1: written
//          { ok: false, message, mismatch?, expected, actual?, diff? }  otherwise
// On a mismatch test/screenshots/actual/<name>.png and <name>.diff.png are written (paths in
// the result are relative to the project root). A passing comparison removes stale ones.
// UPDATE_SCREENSHOTS=1 only creates missing expected images; to re-baseline one, delete it
// and run again with UPDATE_SCREENSHOTS=1.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import pixelmatch from 'pixelmatch';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NAME_RE = /^[A-Za-z0-9_][A-Za-z0-9_.-]*(\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$/;

function decodeDataUrl(dataUrl) {
  const m = /^data:image\/png;base64,(.*)$/s.exec(dataUrl ?? '');
  if (!m) throw new Error('compare-screenshot: dataUrl must be a "data:image/png;base64,..." URL');
  return Buffer.from(m[1], 'base64');
}

function write(file, buffer) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, buffer);
}

/**
 * @param {{ rootDir?: string, expectedDir?: string, actualDir?: string, update?: boolean }} [options]
 */
export function compareScreenshotPlugin(options = {}) {
  const rootDir = options.rootDir ?? ROOT;
  const expectedDir = path.resolve(rootDir, options.expectedDir ?? 'test/screenshots/expected');
  const actualDir = path.resolve(rootDir, options.actualDir ?? 'test/screenshots/actual');
  const update = options.update ?? process.env.UPDATE_SCREENSHOTS === '1';
  const rel = file => path.relative(rootDir, file).split(path.sep).join('/');

  function compare({ name, dataUrl, expectedDataUrl, tolerance = 0.01, threshold = 0.1 }) {
    if (typeof name !== 'string' || !NAME_RE.test(name) || name.includes('..')) {
      throw new Error(`compare-screenshot: invalid name ${JSON.stringify(name)} (use letters, digits, _ . - and /)`);
    }
    const given = expectedDataUrl !== undefined;
    const expectedFile = given ? path.join(actualDir, `${name}.expected.png`) : path.join(expectedDir, `${name}.png`);
    const actualFile = path.join(actualDir, `${name}.png`);
    const diffFile = path.join(actualDir, `${name}.diff.png`);
    const actualBuffer = decodeDataUrl(dataUrl);
    const actual = PNG.sync.read(actualBuffer);

    if (!given && !existsSync(expectedFile)) {
      if (update) {
        write(expectedFile, PNG.sync.write(actual));
        return { ok: true, created: true, expected: rel(expectedFile) };
      }
      return {
        ok: false,
        expected: rel(expectedFile),
        message: `no expected image ${rel(expectedFile)}; run with UPDATE_SCREENSHOTS=1 to create it`,
      };
    }

    const expectedBuffer = given ? decodeDataUrl(expectedDataUrl) : readFileSync(expectedFile);
    const expected = PNG.sync.read(expectedBuffer);
    if (given) rmSync(expectedFile, { force: true });
    if (expected.width !== actual.width || expected.height !== actual.height) {
      write(actualFile, actualBuffer);
      if (given) write(expectedFile, expectedBuffer);
      rmSync(diffFile, { force: true });
      return {
        ok: false,
        mismatch: 1,
        expected: rel(expectedFile),
        actual: rel(actualFile),
        message:
          `screenshot "${name}": size ${actual.width}x${actual.height} differs from expected ` +
          `${expected.width}x${expected.height} (${rel(expectedFile)}); actual written to ${rel(actualFile)}`,
      };
    }

    const { width, height } = actual;
    const diff = new PNG({ width, height });
    const differing = pixelmatch(expected.data, actual.data, diff.data, width, height, { threshold });
    const mismatch = differing / (width * height);
    if (mismatch > tolerance) {
      write(actualFile, actualBuffer);
      if (given) write(expectedFile, expectedBuffer);
      write(diffFile, PNG.sync.write(diff));
      return {
        ok: false,
        mismatch,
        expected: rel(expectedFile),
        actual: rel(actualFile),
        diff: rel(diffFile),
        message:
          `screenshot "${name}": ${differing} of ${width * height} pixels differ ` +
          `(${(mismatch * 100).toFixed(3)}% > tolerance ${(tolerance * 100).toFixed(3)}%, threshold ${threshold}); ` +
          `see ${rel(actualFile)} and ${rel(diffFile)} against ${rel(expectedFile)}`,
      };
    }
    rmSync(actualFile, { force: true });
    rmSync(diffFile, { force: true });
    return { ok: true, mismatch, expected: rel(expectedFile) };
  }

  return {
    name: 'compare-screenshot',
    async executeCommand({ command, payload }) {
      if (command !== 'compare-screenshot') return undefined;
      return compare(payload ?? {});
    },
  };
}
