import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import type { BlobStore } from '../storage/blobs.js';
import { one, type Sql } from '../storage/database.js';
import { SCENE_VERSION } from '../../src/core/formats/scene.js';
import { checksums } from '../../src/core/formats/checksum.js';
import { decodePlans } from '../../src/core/formats/plans.js';
import { CUT_KINDS, type PlanLines, type PlanModel, type PlanStorey } from '../../src/core/plan/protocol.js';
import { pathData } from '../../src/core/viewer2d/path-data.js';
import { PLAN_STYLE as S } from '../../src/core/viewer2d/style.js';
import { notFound } from './errors.js';
import { escapeXml } from './escape-xml.js';
import { currentFormat } from './revisions.js';

/**
 * A project's picture (`GET /v2/projects/{project}/image`): the top view of the largest
 * storey (largestStorey) of its first model (the model made first that has a revision; its latest
 * revision), as SVG: space footprints, the section of walls and other solids filled,
 * doors and windows as lines — what the 2D viewer draws of that storey, from the storey
 * plans the import stored (formats/plans.ts), no GPU nor web-ifc. Drawn the first time
 * it is asked for and kept beside the plans (`scenes/<model>/<name>.image.svg`, the
 * revision's `image_key`; '' when the plans draw nothing), so every revision gets one,
 * those imported before pictures existed included. Revisions whose plans are missing or
 * of an older format (the scene job writes them again) have none until they have plans.
 */
export const IMAGE_TYPE = 'image/svg+xml';
/** The longer side of the picture, CSS pixels (it scales: SVG). */
const IMAGE_SIDE = 512;
/** Polyline points beyond which the lighter layers (doors, windows, others) are left out. */
const POINT_BUDGET = 200_000;

/**
 * SQL: the revision a project's picture comes from: `model_id`, `revision_id`, `plans_key`
 * (null unless of the current format), `image_key` and `has_image`. `project` is the
 * SQL expression of the project's id.
 */
export const imageSource = (project: string) => `SELECT r.model_id, r.id AS revision_id,
      ${currentFormat('plans_key')} AS plans_key, r.image_key,
      (r.image_key <> '' OR (r.image_key IS NULL AND r.scene_version = ${SCENE_VERSION} AND r.plans_key IS NOT NULL)) AS has_image
    FROM models m JOIN LATERAL (SELECT * FROM revisions r WHERE r.model_id = m.id ORDER BY r.id DESC LIMIT 1) r ON true
    WHERE m.project_id = ${project} ORDER BY m.created_at, m.id LIMIT 1`;

/**
 * The picture's version: changes with the revision it comes from. In `imageUrl` as `?v=`,
 * where it also stands for the Bearer token an `<img>` cannot send (it derives from ids
 * only members see).
 */
export const imageVersion = (modelId: string, revisionId: number) => createHash('sha256').update(`${modelId}/${revisionId}`).digest('base64url').slice(0, 16);

export interface ProjectImage {
  /** Its version (imageVersion). */
  version: string;
  /** Its bytes (drawn and stored first when this is the first time). */
  open(): Promise<Readable>;
}

/**
 * The picture of a project (whose access was checked, or whose `version` is given); 404
 * `Image of project` when it has none, or another version.
 */
export async function projectImage(sql: Sql, blobs: BlobStore, projectId: string, version?: string): Promise<ProjectImage> {
  const source = await one(sql, imageSource('$1'), [projectId]);
  const current = source?.has_image ? imageVersion(source.model_id, source.revision_id) : undefined;
  if (!current || (version !== undefined && version !== current)) throw notFound('Image of project', projectId);
  return {
    version: current,
    async open() {
      const key = source!.image_key ?? (await drawAndStore(sql, blobs, source!.model_id, source!.revision_id, source!.plans_key));
      if (!key) throw notFound('Image of project', projectId);
      return blobs.get(key);
    },
  };
}

/** Draws a revision's picture from its plans and records it; resolves with its key, or '' when the plans draw nothing. */
async function drawAndStore(sql: Sql, blobs: BlobStore, modelId: string, revisionId: number, plansKey: string): Promise<string> {
  const [stored] = await Promise.all([blobs.read(plansKey), checksums()]);
  const svg = drawPlanImage(decodePlans(plansKey.endsWith('.gz') ? gunzipSync(stored) : stored, '0'));
  const key = svg ? plansKey.replace(/(\.plans)?(\.gz)?$/, '') + '.image.svg' : '';
  if (svg) await blobs.put(key, Readable.from([Buffer.from(svg)]));
  // Two first requests at once draw the same picture under the same key: either row update is right.
  await sql.query('UPDATE revisions SET image_key = $3 WHERE model_id = $1 AND id = $2', [modelId, revisionId, key]);
  return key;
}

const finite = (b: Float64Array) => b.length === 4 && b.every(Number.isFinite) && b[2] > b[0] && b[3] > b[1];
const area = (b: Float64Array) => (b[2] - b[0]) * (b[3] - b[1]);

/**
 * The storey drawn: the largest floor plan, the one whose section cuts the most objects
 * (walls, doors, windows, ...) with its spaces; of equals, the one of largest extent.
 * (The largest extent alone tends to pick a roof or foundation: one filled slab.)
 * Undefined when no storey draws anything.
 */
export function largestStorey(plan: PlanModel): PlanStorey | undefined {
  let best: { storey: PlanStorey; objects: number; area: number } | undefined;
  for (const storey of plan.storeys) {
    if (!finite(storey.bounds)) continue;
    const objects = new Set(CUT_KINDS.flatMap((kind) => [...storey.cut[kind].owners])).size + storey.spaces.length;
    const candidate = { storey, objects, area: area(storey.bounds) };
    if (!best || objects > best.objects || (objects === best.objects && candidate.area > best.area)) best = candidate;
  }
  return best?.storey;
}

/** The polylines of each owner, in one pass: reordered by owner, each owner's a view of the result. */
function groupByOwner(lines: PlanLines): PlanLines[] {
  const n = lines.owners.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => lines.owners[a] - lines.owners[b] || a - b);
  const coords = new Float64Array(lines.coords.length);
  const starts = new Uint32Array(n + 1);
  const owners = new Uint32Array(n);
  let at = 0;
  order.forEach((i, k) => {
    const [start, end] = [lines.starts[i], lines.starts[i + 1]];
    starts[k] = at;
    owners[k] = lines.owners[i];
    coords.set(lines.coords.subarray(2 * start, 2 * end), 2 * at);
    at += end - start;
  });
  starts[n] = at;
  const groups: PlanLines[] = [];
  for (let a = 0, b = 0; a < n; a = b) {
    while (b < n && owners[b] === owners[a]) b++;
    groups.push({ coords, starts: starts.subarray(a, b + 1), owners: owners.subarray(a, b) });
  }
  return groups;
}


/** The SVG picture of the largest storey of a model's plans; undefined when there is nothing to draw. */
export function drawPlanImage(plan: PlanModel): string | undefined {
  const storey = largestStorey(plan);
  if (!storey) return undefined;
  const [x0, y0, x1, y1] = storey.bounds;
  const margin = Math.max(x1 - x0, y1 - y0) * 0.04;
  const [ox, oy, w, h] = [x0 - margin, y1 + margin, x1 - x0 + 2 * margin, y1 - y0 + 2 * margin];
  const scale = IMAGE_SIDE / Math.max(w, h);
  const [width, height] = [Math.max(1, Math.round(w * scale)), Math.max(1, Math.round(h * scale))];
  const round = (v: number) => Math.round(v * 1000) / 1000;
  const parts: string[] = [];
  const spaces = storey.spaces.map((i) => plan.spaces[i]).filter((s) => s.rings.owners.length);
  if (spaces.length) {
    const d = spaces.map((s) => pathData(s.rings, ox, oy)).join('');
    parts.push(`<path d="${d}" fill="${S.spaceFill}" stroke="${S.spaceStroke}" stroke-width="${round(S.spaceStrokeWidth / scale)}" fill-rule="nonzero"/>`);
  }
  const points = CUT_KINDS.reduce((n, kind) => n + storey.cut[kind].coords.length / 2, 0);
  const solid = storey.cut.solid;
  if (solid.owners.length) {
    // One path per object: its loops filled even-odd (holes stay open), overlaps stay filled (as plan-layer.ts draws them).
    const paths = groupByOwner(solid).map((lines) => `<path d="${pathData(lines, ox, oy)}"/>`);
    parts.push(`<g fill="${S.solidFill}" stroke="${S.solidStroke}" stroke-width="${round(S.solidStrokeWidth / scale)}" fill-rule="evenodd" stroke-linejoin="round">${paths.join('')}</g>`);
  }
  if (points <= POINT_BUDGET) {
    const colour = { door: S.doorStroke, window: S.windowStroke, other: S.otherStroke } as const;
    for (const kind of ['door', 'window', 'other'] as const) {
      if (!storey.cut[kind].owners.length) continue;
      parts.push(`<path d="${pathData(storey.cut[kind], ox, oy)}" fill="none" stroke="${colour[kind]}" stroke-width="${round(S.cutStrokeWidth / scale)}" stroke-linecap="round" stroke-linejoin="round"/>`);
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${round(w)} ${round(h)}">
<title>${escapeXml(storey.name || 'Plan')}</title>
<rect width="100%" height="100%" fill="${S.background}"/>
${parts.join('\n')}
</svg>
`;
}
