import type { PlanLines } from '../plan/protocol.js';

/**
 * Path data of polylines in SVG user space: model (x, y) becomes (x - ox, oy - y), so
 * y points down as SVG wants and far-away coordinates lose no precision. Millimetres
 * are enough. `filter` picks polylines by index.
 */
export function pathData(lines: PlanLines, ox: number, oy: number, filter?: (index: number) => boolean): string {
  const c = lines.coords;
  const parts: string[] = [];
  for (let i = 0; i < lines.owners.length; i++) {
    if (filter && !filter(i)) continue;
    const start = lines.starts[i], end = lines.starts[i + 1];
    if (end - start < 2) continue;
    const closed = end - start > 2 && c[start * 2] === c[(end - 1) * 2] && c[start * 2 + 1] === c[(end - 1) * 2 + 1];
    let d = '';
    const last = closed ? end - 1 : end;
    for (let k = start; k < last; k++) {
      d += (k === start ? 'M' : 'L') + fmt(c[k * 2] - ox) + ' ' + fmt(oy - c[k * 2 + 1]);
    }
    parts.push(closed ? d + 'Z' : d);
  }
  return parts.join('');
}

function fmt(v: number): string {
  return String(Math.round(v * 1000) / 1000);
}
