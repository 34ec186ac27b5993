import type { Viewer3d, ObjectStateInfo } from '../viewer3d.js';
import type { Rgba } from '../data/colors.js';
import { MAX_CLIPPING_PLANES } from '../scene/clipping-planes.js';
import { ViewerError, type Vec3, type Viewpoint, type ViewpointInput } from '../types.js';
import { bcfViewpointProblem } from './check-viewpoint.js';
import type { BcfComponent, BcfComponents, BcfPoint, BcfViewpoint, BcfViewSetupHints, BcfVisibility } from './viewpoint-types.js';

/**
 * BCF viewpoints (BCF-API 2.1/3.0 JSON) in the 3D viewer: taking one of what it shows and
 * showing one. Both speak the viewer's API coordinates, which are IFC world coordinates
 * (metres, z up: web-ifc places geometry without moving it to the origin, and the
 * viewer's own origin shift is added back), so a camera another tool wrote lands where
 * it meant. Components are IFC GlobalIds, looked up across every loaded model.
 */
type BcfViewer = Pick<
  Viewer3d,
  'objectStates' | 'getViewpoint' | 'setViewpoint' | 'getClippingPlanes' | 'setClippingPlanes' | 'products' | 'objectIdsOfGlobalIds' |
  'setVisible' | 'setSelected' | 'setTranslucent' | 'setColor' | 'resetColors' | 'screenshot' | 'renderer'
>;

/** Object kinds the view setup hints govern (space boundaries are relations, never objects here). */
const isSpace = (type: string) => type.toUpperCase() === 'IFCSPACE';
const isOpening = (type: string) => type.toUpperCase().startsWith('IFCOPENING');

/** Why the viewer cannot show `viewpoint` (the BCF rules, then its own limits), or null. */
export function bcfViewpointError(method: string, viewpoint: unknown): ViewerError | null {
  const problem = bcfViewpointProblem(viewpoint);
  if (problem) return new ViewerError('argument', `${method}: ${problem}`);
  const planes = (viewpoint as BcfViewpoint).clipping_planes?.length ?? 0;
  if (planes > MAX_CLIPPING_PLANES) return new ViewerError('argument', `${method}: at most ${MAX_CLIPPING_PLANES} clipping planes, got ${planes}`);
  return null;
}

/** A viewpoint of what the viewer shows; `snapshot` adds a PNG of it (plain base64). */
export async function takeBcfViewpoint(viewer: BcfViewer, options: { snapshot?: boolean } = {}): Promise<BcfViewpoint> {
  // The camera, planes, picture and states first, together: the GlobalId lookup below waits.
  const canvas = viewer.renderer.domElement;
  const viewpoint: BcfViewpoint = {
    ...bcfCamera(viewer.getViewpoint(), (canvas.clientWidth || 1) / (canvas.clientHeight || 1)),
    // Fresh plain {location, direction} objects already, in model coordinates.
    clipping_planes: viewer.getClippingPlanes(),
  };
  if (options.snapshot) viewpoint.snapshot = { snapshot_type: 'png', snapshot_data: viewer.screenshot().replace(/^data:image\/png;base64,/, '') };
  const states = viewer.objectStates();
  const visibility = visibilityOf(states);
  const selection = states.filter((s) => s.selected).map((s) => s.objectId);
  const colors = new Map<string, string[]>();
  for (const s of states) {
    if (!s.color) continue;
    const color = bcfColor(s.color);
    if (!colors.has(color)) colors.set(color, []);
    colors.get(color)!.push(s.objectId);
  }
  const guids = await globalIdsOf(viewer, [...visibility.exceptions, ...selection, ...[...colors.values()].flat()]);
  const components = (ids: string[]): BcfComponent[] => ids.flatMap((id) => (guids.get(id) ? [{ ifc_guid: guids.get(id)! }] : []));
  viewpoint.components = {
    selection: components(selection),
    coloring: [...colors].map(([color, ids]) => ({ color, components: components(ids) })),
    visibility: { default_visibility: visibility.default_visibility, exceptions: components(visibility.exceptions), view_setup_hints: visibility.view_setup_hints },
  };
  return viewpoint;
}

/**
 * Shows a viewpoint (checked with bcfViewpointError first): visibility, selection,
 * colours (translucency off, as BCF has none but a colour's alpha), clipping planes, then
 * the camera through the viewer's viewpoint transition; resolves when it has arrived.
 * GlobalIds no loaded model has are ignored: a viewpoint may name objects of other models.
 */
export async function showBcfViewpoint(viewer: BcfViewer, viewpoint: BcfViewpoint): Promise<void> {
  const components: BcfComponents = viewpoint.components ?? {};
  const coloring = components.coloring ?? [];
  const found = await objectIdsOf(viewer, [components.selection, components.visibility?.exceptions, ...coloring.map((c) => c.components)]);
  const ids = (list: BcfComponent[] | null | undefined) => (list ?? []).flatMap((c) => (c.ifc_guid ? found.get(c.ifc_guid) ?? [] : []));

  const shown = visibleStates(viewer.objectStates(), components.visibility, new Set(ids(components.visibility?.exceptions)));
  viewer.setVisible(shown.visible, true);
  viewer.setVisible(shown.hidden, false);
  viewer.setTranslucent(null, false);
  viewer.setSelected(null, false);
  viewer.setSelected(ids(components.selection), true);
  viewer.resetColors();
  for (const { color, components: list } of coloring) viewer.setColor(ids(list), viewerColor(color));
  viewer.setClippingPlanes(viewpoint.clipping_planes ?? []);
  await viewer.setViewpoint(viewpointInput(viewpoint));
}

function bcfCamera(vp: Viewpoint, aspect: number): Pick<BcfViewpoint, 'perspective_camera' | 'orthogonal_camera'> {
  const camera = { camera_view_point: point(vp.location), camera_direction: point(vp.direction), camera_up_vector: point(vp.up), aspect_ratio: aspect };
  return vp.type === 'perspective' ? { perspective_camera: { ...camera, field_of_view: vp.fov } } : { orthogonal_camera: { ...camera, view_to_world_scale: vp.viewToWorldScale } };
}

function viewpointInput(vp: BcfViewpoint): ViewpointInput {
  const camera = (vp.perspective_camera ?? vp.orthogonal_camera)!;
  const place = { location: point(camera.camera_view_point), direction: point(camera.camera_direction), up: point(camera.camera_up_vector) };
  return vp.perspective_camera ? { type: 'perspective', ...place, fov: vp.perspective_camera.field_of_view } : { type: 'orthogonal', ...place, viewToWorldScale: vp.orthogonal_camera!.view_to_world_scale };
}

const point = (p: BcfPoint | Vec3): Vec3 => ({ x: p.x, y: p.y, z: p.z });

/** What an object looks like before the exceptions: the default, less spaces and openings the hints hide. */
function expectedVisible(type: string, defaultVisibility: boolean, hints: BcfViewSetupHints | null | undefined): boolean {
  if (isSpace(type) && !hints?.spaces_visible) return false;
  if (isOpening(type) && !hints?.openings_visible) return false;
  return defaultVisibility;
}

/**
 * Visibility with the shorter list of exceptions (the API's rule: default true when fewer
 * objects are hidden than shown). Spaces (openings) are visible by hint only when some are
 * shown and the default is true; otherwise the shown ones are exceptions.
 */
function visibilityOf(states: ObjectStateInfo[]): { default_visibility: boolean; view_setup_hints: BcfViewSetupHints; exceptions: string[] } {
  const anySpace = states.some((s) => s.visible && isSpace(s.type));
  const anyOpening = states.some((s) => s.visible && isOpening(s.type));
  const [hidden, shown] = [false, true].map((defaultVisibility) => {
    const hints = { spaces_visible: defaultVisibility && anySpace, space_boundaries_visible: false, openings_visible: defaultVisibility && anyOpening };
    const exceptions = states.filter((s) => s.visible !== expectedVisible(s.type, defaultVisibility, hints)).map((s) => s.objectId);
    return { default_visibility: defaultVisibility, view_setup_hints: hints, exceptions };
  });
  return shown.exceptions.length < hidden.exceptions.length ? shown : hidden;
}

/** The objects to show and to hide. Without visibility everything shows but spaces and openings (the hints' defaults). */
function visibleStates(states: ObjectStateInfo[], visibility: BcfVisibility | null | undefined, exceptions: Set<string>) {
  const defaultVisibility = visibility ? visibility.default_visibility ?? false : true;
  const visible: string[] = [];
  const hidden: string[] = [];
  for (const s of states) {
    const on = exceptions.has(s.objectId) ? !defaultVisibility : expectedVisible(s.type, defaultVisibility, visibility?.view_setup_hints);
    (on ? visible : hidden).push(s.objectId);
  }
  return { visible, hidden };
}

/** `RRGGBB`, or `AARRGGBB` when translucent (BCF puts alpha first). */
function bcfColor({ r, g, b, a }: Rgba): string {
  const hex = (n: number) => Math.round(n * 255).toString(16).padStart(2, '0').toUpperCase();
  return (a < 1 ? hex(a) : '') + hex(r) + hex(g) + hex(b);
}

/** The viewer's `#RRGGBB` / `#RRGGBBAA` (alpha last) of a BCF colour. */
function viewerColor(color: string): string {
  return color.length === 8 ? `#${color.slice(2)}${color.slice(0, 2)}` : `#${color}`;
}

async function globalIdsOf(viewer: BcfViewer, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const products = unique.length ? await viewer.products(unique, {}) : [];
  return new Map(products.flatMap((p, i) => (p?.globalId ? [[unique[i], p.globalId] as [string, string]] : [])));
}

/**
 * The objects of each GlobalId in the lists, in every loaded model that has it (a model
 * loaded twice, two revisions side by side: both). A component without
 * geometry of its own (a curtain wall, an assembly, a roof: BCF names the whole rather
 * than its parts) stands for the parts it is made of; spaces and openings among them are
 * left to the view setup hints.
 */
async function objectIdsOf(viewer: BcfViewer, lists: (BcfComponent[] | null | undefined)[]): Promise<Map<string, string[]>> {
  const guids = [...new Set(lists.flatMap((list) => (list ?? []).map((c) => c.ifc_guid).filter((g): g is string => !!g)))];
  const result = new Map<string, string[]>();
  if (guids.length === 0) return result;
  const drawn = new Set(viewer.objectStates().map((s) => s.objectId));
  const ids = await viewer.objectIdsOfGlobalIds(guids);
  const wholes: [string, string][] = [];
  guids.forEach((guid, i) => {
    result.set(guid, ids[i].filter((id) => drawn.has(id)));
    for (const id of ids[i]) if (!drawn.has(id)) wholes.push([guid, id]);
  });
  if (wholes.length === 0) return result;
  const children = new Map<string, { objectId: string; type: string }[]>();
  for (const p of await viewer.products(null, {})) {
    if (!p) continue;
    if (!children.has(p.parent)) children.set(p.parent, []);
    children.get(p.parent)!.push(p);
  }
  for (const [guid, whole] of wholes) {
    const parts: string[] = [];
    const stack = [whole];
    while (stack.length) {
      for (const child of children.get(stack.pop()!) ?? []) {
        if (isSpace(child.type) || isOpening(child.type)) continue;
        if (drawn.has(child.objectId)) parts.push(child.objectId);
        stack.push(child.objectId);
      }
    }
    result.get(guid)!.push(...parts);
  }
  return result;
}
