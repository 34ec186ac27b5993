// `npm run pointcloud -- scan.las|laz|e57 [out.bimcloud]`: converts a scan into the point
// cloud format the viewer streams (docs/POINTCLOUD-FORMAT.md), the conversion the platform's
// import runs. Prints progress to stderr and a summary to stdout.
import path from 'node:path';
import { statSync } from 'node:fs';
import { openPointFile } from '../server/pointcloud/point-reader.js';
import { convertPointCloud } from '../server/pointcloud/octree/convert.js';

const [input, output = input?.replace(/\.[^./]*$/, '') + '.bimcloud'] = process.argv.slice(2);
if (!input || input.startsWith('-')) {
  process.stderr.write('usage: npm run pointcloud -- scan.las|scan.laz|scan.e57 [out.bimcloud]\n');
  process.exit(2);
}
const tty = process.stderr.isTTY;
let shown = -1;
try {
  const reader = await openPointFile(input);
  try {
    const summary = await convertPointCloud(reader, output, {
      sourceName: path.basename(input),
      onProgress(fraction) {
        const percent = Math.floor(fraction * 100);
        if (percent === shown || (!tty && percent % 10 && percent !== 100)) return;
        shown = percent;
        process.stderr.write(tty ? `\r${input}: ${percent}%` : `${input}: ${percent}%\n`);
      },
    });
    if (tty) process.stderr.write('\n');
    const { points, nodes, depth, invalid, seconds, pointsPerSecond, bounds } = summary;
    process.stdout.write(
      `${output}: ${points} points, ${nodes} nodes, depth ${depth}, ${seconds.toFixed(2)} s, ${Math.round(pointsPerSecond)} points/s, ${statSync(output).size} bytes` +
        `${invalid ? `, ${invalid} invalid points left out` : ''}\n` +
        `bounds ${JSON.stringify(bounds)}\n`,
    );
  } finally {
    await reader.close();
  }
} catch (error) {
  if (tty && shown >= 0) process.stderr.write('\n');
  process.stderr.write(`${input}: ${(error as Error).message}\n`);
  process.exit(1);
}
