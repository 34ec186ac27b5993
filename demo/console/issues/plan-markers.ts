/**
 * Issues on the 2D plan: a marker (`#12`, the issue number) for each listed topic whose
 * first viewpoint looks at the storey shown, through <bim-viewer-2d>'s public marker API
 * (addMarker with `clickable`, removeMarker, the `viewer2d.markerclick` event).
 *
 * Where a viewpoint looks, kept simple: the camera's target is the point of its view ray
 * nearest the centre of the 3D model's box (camera_view_point + direction × that
 * distance, never behind the camera), moved into the box. The marker sits at the target's
 * x, y (the plan speaks IFC x, y like BCF), on the storey whose elevation range holds the
 * target's height (`getStoreyByElevation`: the highest storey at or below it, else the
 * lowest). A viewpoint's selected components are not looked at: the camera says where
 * someone looked, and every viewpoint has one.
 */
import type { BcfPoint, Box } from '../../../src/index.js';
import type { Viewers } from '../viewers.js';
import { listViewpoints, type StoredViewpoint, type Topic } from './bcf-api.js';

export interface Placement { storeyId: string; storeyName: string; x: number; y: number }

/** The point a camera looks at in a model's box (see the module's comment). */
function lookedAt(viewpoint: Pick<StoredViewpoint, 'perspective_camera' | 'orthogonal_camera'>, box: Box): BcfPoint | undefined {
  const camera = viewpoint.perspective_camera ?? viewpoint.orthogonal_camera;
  if (!camera) return undefined;
  const p = camera.camera_view_point;
  const d = camera.camera_direction;
  const length = Math.hypot(d.x, d.y, d.z);
  if (!(length > 0)) return undefined;
  const dir = { x: d.x / length, y: d.y / length, z: d.z / length };
  const centre = { x: (box.min.x + box.max.x) / 2, y: (box.min.y + box.max.y) / 2, z: (box.min.z + box.max.z) / 2 };
  const t = Math.max(0, (centre.x - p.x) * dir.x + (centre.y - p.y) * dir.y + (centre.z - p.z) * dir.z);
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  return {
    x: clamp(p.x + dir.x * t, box.min.x, box.max.x),
    y: clamp(p.y + dir.y * t, box.min.y, box.max.y),
    z: clamp(p.z + dir.z * t, box.min.z, box.max.z),
  };
}

export class PlanMarkers {
  private boardId?: string;
  private topics: Topic[] = [];
  /** Each topic's first viewpoint with a camera, by topic guid (null: none), for the board shown. */
  private readonly viewpoints = new Map<string, StoredViewpoint | null>();
  private readonly placements = new Map<string, Placement>();
  /** The marker ids this module added (the plan may hold others'). */
  private readonly added = new Set<string>();
  private box?: Box | null;
  /** Each refresh bumps it: an older one still fetching stops. */
  private generation = 0;

  constructor(private readonly viewers: Viewers, open: (guid: string) => void) {
    viewers.viewer2d.addEventListener('viewer2d.markerclick', (event) => {
      const data = event.detail.marker.data as { topicGuid?: string } | undefined;
      if (data?.topicGuid) {
        event.preventDefault(); // the click opens the issue; it does not select the space below
        open(data.topicGuid);
      }
    });
    viewers.onStoreyShown = () => this.draw();
  }

  /** A revision was opened: the model's box and the plan's storeys are new. */
  modelChanged(): void {
    this.box = undefined;
    this.placements.clear();
    void this.refresh();
  }

  /** The topics listed now (a new board, a filter, a change). */
  show(boardId: string, topics: Topic[]): Promise<void> {
    if (boardId !== this.boardId) this.viewpoints.clear();
    this.boardId = boardId;
    this.topics = topics;
    return this.refresh();
  }

  /** A topic gained a viewpoint or changed: its marker is placed anew. */
  forget(topicGuid: string): void {
    this.viewpoints.delete(topicGuid);
  }

  placement(topicGuid: string): Placement | undefined {
    return this.placements.get(topicGuid);
  }

  private async refresh(): Promise<void> {
    const generation = ++this.generation;
    const boardId = this.boardId;
    if (!boardId) return;
    this.box ??= await this.viewers.viewer3d.boundingBox(null).catch(() => null);
    // The viewpoints of the topics not fetched yet, a few requests at a time.
    const missing = this.topics.filter((t) => !this.viewpoints.has(t.guid));
    for (let i = 0; i < missing.length; i += 6) {
      await Promise.all(missing.slice(i, i + 6).map(async (topic) => {
        const list = await listViewpoints(boardId, topic.guid).catch(() => []);
        this.viewpoints.set(topic.guid, list.find((v) => v.perspective_camera || v.orthogonal_camera) ?? null);
      }));
      if (generation !== this.generation) return;
    }
    this.placements.clear();
    const storeys = this.viewers.viewer2d.getStoreys();
    const lowest = [...storeys].sort((a, b) => a.elevation - b.elevation)[0];
    for (const topic of this.topics) {
      const viewpoint = this.viewpoints.get(topic.guid);
      const target = viewpoint && this.box && lookedAt(viewpoint, this.box);
      const storey = target && (this.viewers.viewer2d.getStoreyByElevation(target.z) ?? lowest);
      if (target && storey) this.placements.set(topic.guid, { storeyId: storey.id, storeyName: storey.name, x: target.x, y: target.y });
    }
    this.draw();
  }

  /** The markers of the storeys shown on the plan now. */
  private draw(): void {
    const plan = this.viewers.viewer2d;
    for (const id of this.added) void plan.removeMarker(id).catch(() => {});
    this.added.clear();
    const shown = new Set(plan.getStoreys({ visible: true, all: true }).map((s) => s.id));
    for (const topic of this.topics) {
      const place = this.placements.get(topic.guid);
      if (!place || !shown.has(place.storeyId)) continue;
      const id = plan.addMarker({
        id: `issue-${topic.guid}`,
        x: place.x,
        y: place.y,
        text: `#${topic.platform_issue_number}`,
        color: '#b3261e',
        clickable: true,
        data: { topicGuid: topic.guid },
      });
      this.added.add(id);
    }
  }
}
