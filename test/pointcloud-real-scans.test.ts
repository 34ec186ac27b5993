import { assert, assertAlmostEqual, assertEqual } from './support/assert';
import { createViewer, removeViewer, pixels } from './support/viewer';
import { core, settle } from './support/pointclouds';
import { readPointCloudHead, type PointCloudMetadata } from '../src/core/formats/pointcloud';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Viewer3d } from '../src/core/viewer3d';
import type { ModelInfo, ViewerError } from '../src/core/types';

// The real scans of the BIM_POINTCLOUDS folder (default ../shared/pointclouds; scripts/test.mjs
// leaves this file out without it), converted by the demo backend on first request
// (/pointclouds/<scan>.pointcloud) and read by the viewer with range requests. Each one
// shows with the count, bounds and colours its MANIFEST.tsv row and the converter's
// metadata give, or is refused with a clear error.

interface Scan {
  file: string;
  size: number;
  contents: string;
}


async function metadataOf(url: string): Promise<PointCloudMetadata> {
  const res = await fetch(url, { headers: { Range: 'bytes=0-262143' } });
  const head = readPointCloudHead(new Uint8Array(await res.arrayBuffer()));
  if ('needed' in head) throw new Error(`${url}: a head of ${head.needed} bytes`);
  return head.metadata;
}

describe('point clouds: the real scans', () => {
  let el: BimViewer3d;
  before(async () => {
    el = await createViewer(320, 240);
  });
  after(() => removeViewer(el));

  it('the demo backend answers ranges of a converted scan: 206 with Content-Range, 416 past the end, 200 without a range', async function () {
    this.timeout(300_000);
    const { scans } = (await (await fetch('/pointclouds/')).json()) as { scans: Scan[] };
    const url = `/pointclouds/${encodeURIComponent(scans.find((s) => /\.las$/.test(s.file))!.file)}.pointcloud`;
    const whole = await fetch(url);
    assertEqual(whole.status, 200);
    const size = (await whole.arrayBuffer()).byteLength;
    const part = await fetch(url, { headers: { Range: 'bytes=0-7' } });
    assertEqual(part.status, 206);
    assertEqual(part.headers.get('Content-Range'), `bytes 0-7/${size}`);
    assertEqual(new TextDecoder().decode(await part.arrayBuffer()), 'BIMCLOUD');
    const tail = await fetch(url, { headers: { Range: `bytes=${size - 4}-${size + 100}` } });
    assertEqual(tail.status, 206);
    assertEqual((await tail.arrayBuffer()).byteLength, 4, 'a range past the end is cut at the end');
    const past = await fetch(url, { headers: { Range: `bytes=${size}-` } });
    assertEqual(past.status, 416);
    assertEqual(past.headers.get('Content-Range'), `bytes */${size}`);
    const missing = await fetch('/pointclouds/no-such-scan.las.pointcloud');
    assertEqual(missing.status, 404);
  });

  it('every scan shows with its point count, bounds and colours, or is refused with a clear error', async function () {
    this.timeout(900_000);
    const { scans } = (await (await fetch('/pointclouds/')).json()) as { scans: Scan[] };
    assert(scans.length > 0, 'the folder has scans');
    const refused: string[] = [];
    for (const scan of scans) {
      const url = `/pointclouds/${encodeURIComponent(scan.file)}.pointcloud`;
      const result = await el.loadModel(url, { modelType: 'point-cloud', modelId: scan.file }).then((info) => info, (e: ViewerError) => e);
      if (result instanceof Error) {
        assertEqual(result.type, 'pointcloud', `${scan.file}: the error's type`);
        // The converter's own reason reaches the page (after "the server answered 422 ...: ").
        assert(/422[^:]*: .{12,}/.test(result.message), `${scan.file}: refused with a reason: ${result.message}`);
        refused.push(scan.file);
        continue;
      }
      const info = result as ModelInfo;
      const metadata = await metadataOf(url);
      assertEqual(info.pointCount, metadata.points, `${scan.file}: points as the metadata says`);
      const stated = /([\d,]+) points/.exec(scan.contents);
      if (stated) assertEqual(info.pointCount, Number(stated[1].replace(/,/g, '')), `${scan.file}: points as MANIFEST.tsv says`);
      const { min, max } = metadata.container.tightBoundingBox;
      (['x', 'y', 'z'] as const).forEach((axis, i) => {
        assertAlmostEqual(info.boundingBox.min[axis], min[i], 1e-6, `${scan.file}: min ${axis}`);
        assertAlmostEqual(info.boundingBox.max[axis], max[i], 1e-6, `${scan.file}: max ${axis}`);
      });
      await el.viewpoint('home');
      await settle(el);
      const img = await pixels(await el.screenshot());
      let drawn = 0;
      let coloured = 0;
      for (let i = 0; i < img.data.length; i += 4) {
        const [r, g, b] = [img.data[i], img.data[i + 1], img.data[i + 2]];
        if (Math.abs(r - 0xf2) + Math.abs(g - 0xf3) + Math.abs(b - 0xf5) > 12) drawn++;
        if (Math.max(r, g, b) - Math.min(r, g, b) > 24) coloured++;
      }
      assert(drawn >= Math.min(50, 4 * info.pointCount!), `${scan.file}: its ${info.pointCount} points are drawn (${drawn} pixels)`);
      const hasColour = metadata.attributes.some((a) => a.name === 'rgb');
      if (/RGB|colou?r/i.test(scan.contents)) assert(hasColour, `${scan.file}: MANIFEST.tsv says it has colour`);
      if (hasColour) assert(coloured >= Math.min(20, info.pointCount!), `${scan.file}: drawn in colour, not white or grey (${coloured} coloured pixels)`);
      await el.unloadModel(scan.file);
    }
    // Refused: the damaged file, and the ones without points; every other scan shows.
    const expected = scans.filter((s) => /refused|no scans|zero points/i.test(s.contents)).map((s) => s.file);
    assertEqual(refused.join(', '), expected.join(', '), 'the refused scans');
  });
});
