import type { BcfBitmap, BcfColoring, BcfComponent, BcfComponents, BcfPoint, BcfViewpoint } from '../../../../src/core/bcf/viewpoint-types.js';
import { BcfFileError, type BcfXmlVersion } from './archive.js';
import { attribute, bool, buildXml, list, number, optional, parseXml, text, type XmlNode } from './xml.js';

/**
 * A viewpoint's visinfo file (.bcfv) and the API's viewpoint JSON, both ways. 2.0's
 * components (one list, each with Selected, Visible and Color) are read into selection,
 * visibility and coloring; 2.1 and 3.0 are read and written as their schemas have them.
 */

const point = (node: unknown, what: string): BcfPoint => {
  const n = node as XmlNode | undefined;
  if (!n || typeof n !== 'object') throw new BcfFileError(`${what} is missing`);
  return { x: number(n.X, `${what} X`), y: number(n.Y, `${what} Y`), z: number(n.Z, `${what} Z`) };
};

function component(node: XmlNode): BcfComponent {
  const c: BcfComponent = {};
  const guid = attribute(node, 'IfcGuid');
  if (guid) c.ifc_guid = guid;
  const system = optional(node.OriginatingSystem);
  if (system) c.originating_system = system;
  const tool = optional(node.AuthoringToolId);
  if (tool) c.authoring_tool_id = tool;
  return c;
}

/** The components of 2.1 and 3.0 (3.0 moved the hints into Visibility and wraps coloured components). */
function components(node: XmlNode, version: BcfXmlVersion): BcfComponents {
  if (version === '2.0') return components20(node);
  const result: BcfComponents = {};
  const selection = list((node.Selection as XmlNode | undefined)?.Component).map(component);
  if (selection.length) result.selection = selection;
  const visibility = node.Visibility as XmlNode | undefined;
  const hints = (version === '3.0' ? visibility?.ViewSetupHints : node.ViewSetupHints) as XmlNode | undefined;
  result.visibility = {
    default_visibility: bool(attribute(visibility, 'DefaultVisibility'), version === '2.1'),
    exceptions: list((visibility?.Exceptions as XmlNode | undefined)?.Component).map(component),
  };
  if (hints) {
    result.visibility.view_setup_hints = {
      spaces_visible: bool(attribute(hints, 'SpacesVisible'), false),
      space_boundaries_visible: bool(attribute(hints, 'SpaceBoundariesVisible'), false),
      openings_visible: bool(attribute(hints, 'OpeningsVisible'), false),
    };
  }
  const coloring = list((node.Coloring as XmlNode | undefined)?.Color).map((color) => ({
    color: (attribute(color, 'Color') ?? '').toUpperCase(),
    components: list(version === '3.0' ? (color.Components as XmlNode | undefined)?.Component : color.Component).map(component),
  }));
  if (coloring.length) result.coloring = coloring;
  return result;
}

/** 2.0: one component list; visible ones listed alone mean only they show, invisible ones that all but they show. */
function components20(node: XmlNode): BcfComponents {
  const all = list(node.Component);
  const selection = all.filter((c) => bool(attribute(c, 'Selected'), false)).map(component);
  const hidden = all.filter((c) => attribute(c, 'Visible') !== undefined && !bool(attribute(c, 'Visible'), true));
  const shown = all.filter((c) => bool(attribute(c, 'Visible'), false));
  const byColor = new Map<string, BcfComponent[]>();
  for (const c of all) {
    const color = attribute(c, 'Color');
    if (color) byColor.set(color.toUpperCase(), [...(byColor.get(color.toUpperCase()) ?? []), component(c)]);
  }
  const result: BcfComponents = {
    visibility: hidden.length || !shown.length ? { default_visibility: true, exceptions: hidden.map(component) } : { default_visibility: false, exceptions: shown.map(component) },
  };
  if (selection.length) result.selection = selection;
  if (byColor.size) result.coloring = [...byColor].map(([color, members]) => ({ color, components: members }));
  return result;
}

/** A visinfo file as the API's viewpoint; its bitmaps' files are read from `files` (names in the topic folder). */
export function readVisinfo(xml: string, version: BcfXmlVersion, name: string, files: ReadonlyMap<string, Uint8Array>): BcfViewpoint {
  const root = parseXml(xml, 'VisualizationInfo', name);
  const viewpoint: BcfViewpoint = {};
  if (root.Components) viewpoint.components = components(root.Components as XmlNode, version);
  const camera = (node: XmlNode, what: string) => ({
    camera_view_point: point(node.CameraViewPoint, `${name}: ${what} CameraViewPoint`),
    camera_direction: point(node.CameraDirection, `${name}: ${what} CameraDirection`),
    camera_up_vector: point(node.CameraUpVector, `${name}: ${what} CameraUpVector`),
    ...(node.AspectRatio !== undefined ? { aspect_ratio: number(node.AspectRatio, `${name}: AspectRatio`) } : {}),
  });
  const perspective = root.PerspectiveCamera as XmlNode | undefined;
  if (perspective) viewpoint.perspective_camera = { ...camera(perspective, 'PerspectiveCamera'), field_of_view: number(perspective.FieldOfView, `${name}: FieldOfView`) };
  const orthogonal = root.OrthogonalCamera as XmlNode | undefined;
  if (orthogonal) viewpoint.orthogonal_camera = { ...camera(orthogonal, 'OrthogonalCamera'), view_to_world_scale: number(orthogonal.ViewToWorldScale, `${name}: ViewToWorldScale`) };
  const lines = list((root.Lines as XmlNode | undefined)?.Line).map((l, i) => ({ start_point: point(l.StartPoint, `${name}: line ${i + 1}`), end_point: point(l.EndPoint, `${name}: line ${i + 1}`) }));
  if (lines.length) viewpoint.lines = lines;
  const planes = list((root.ClippingPlanes as XmlNode | undefined)?.ClippingPlane).map((p, i) => ({ location: point(p.Location, `${name}: clipping plane ${i + 1}`), direction: point(p.Direction, `${name}: clipping plane ${i + 1}`) }));
  if (planes.length) viewpoint.clipping_planes = planes;
  const bitmaps = list(version === '3.0' ? (root.Bitmaps as XmlNode | undefined)?.Bitmap : root.Bitmap).map((b, i): BcfBitmap => {
    const reference = text(b.Reference);
    const bytes = files.get(reference);
    if (!bytes) throw new BcfFileError(`${name}: bitmap ${i + 1} refers to ${JSON.stringify(reference)}, which the topic folder does not have`);
    const format = text(version === '3.0' ? b.Format : b.Bitmap).toLowerCase();
    return {
      bitmap_type: format === 'jpg' ? 'jpg' : 'png',
      bitmap_data: Buffer.from(bytes).toString('base64'),
      location: point(b.Location, `${name}: bitmap ${i + 1} Location`),
      normal: point(b.Normal, `${name}: bitmap ${i + 1} Normal`),
      up: point(b.Up, `${name}: bitmap ${i + 1} Up`),
      height: number(b.Height, `${name}: bitmap ${i + 1} Height`),
    };
  });
  if (bitmaps.length) viewpoint.bitmaps = bitmaps;
  return viewpoint;
}

const xyz = (p: BcfPoint) => ({ X: String(p.x), Y: String(p.y), Z: String(p.z) });

function componentXml(c: BcfComponent): XmlNode {
  return { $: c.ifc_guid ? { IfcGuid: c.ifc_guid } : undefined, OriginatingSystem: c.originating_system ?? undefined, AuthoringToolId: c.authoring_tool_id ?? undefined };
}

/** 2.1's field of view is 45-60 degrees by its schema: a wider or narrower one is written at the nearest bound. */
const FOV_21: [number, number] = [45, 60];

/**
 * The visinfo file of a viewpoint in `version` (2.1 or 3.0), and the bitmap files it refers
 * to (written beside it in the topic folder, named `Bitmap_<viewpoint guid>_<n>.<type>`).
 */
export function writeVisinfo(guid: string, viewpoint: BcfViewpoint, version: '2.1' | '3.0'): { xml: string; files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  const c = viewpoint.components;
  const exceptions = { Component: (c?.visibility?.exceptions ?? []).map(componentXml) };
  const hints = c?.visibility?.view_setup_hints;
  const hintsXml = hints ? { $: { SpacesVisible: String(!!hints.spaces_visible), SpaceBoundariesVisible: String(!!hints.space_boundaries_visible), OpeningsVisible: String(!!hints.openings_visible) } } : undefined;
  const coloring = (c?.coloring ?? []).filter((k: BcfColoring) => k.components.length);
  const selection = c?.selection ?? [];
  const visibility = {
    $: { DefaultVisibility: String(c?.visibility?.default_visibility ?? version === '2.1') },
    ...(version === '3.0' ? { ViewSetupHints: hintsXml } : {}),
    Exceptions: exceptions.Component.length ? exceptions : undefined,
  };
  const componentsXml = c
    ? {
        ...(version === '2.1' ? { ViewSetupHints: hintsXml } : {}),
        Selection: selection.length ? { Component: selection.map(componentXml) } : undefined,
        Visibility: visibility,
        Coloring: coloring.length
          ? { Color: coloring.map((k) => ({ $: { Color: k.color.replace(/^#/, '').toUpperCase() }, ...(version === '3.0' ? { Components: { Component: k.components.map(componentXml) } } : { Component: k.components.map(componentXml) }) })) }
          : undefined,
      }
    : undefined;
  const aspect = (ratio: number | undefined) => (version === '3.0' ? { AspectRatio: String(ratio ?? 1) } : {});
  const p = viewpoint.perspective_camera;
  const o = viewpoint.orthogonal_camera;
  const bitmaps = (viewpoint.bitmaps ?? []).map((b, i) => {
    const reference = `Bitmap_${guid}_${i + 1}.${b.bitmap_type}`;
    files.set(reference, Buffer.from(b.bitmap_data ?? '', 'base64'));
    const place = { Reference: reference, Location: xyz(b.location), Normal: xyz(b.normal), Up: xyz(b.up), Height: String(b.height) };
    return version === '3.0' ? { Format: b.bitmap_type, ...place } : { Bitmap: b.bitmap_type.toUpperCase(), ...place };
  });
  const lines = (viewpoint.lines ?? []).map((l) => ({ StartPoint: xyz(l.start_point), EndPoint: xyz(l.end_point) }));
  const planes = (viewpoint.clipping_planes ?? []).map((pl) => ({ Location: xyz(pl.location), Direction: xyz(pl.direction) }));
  const xml = buildXml('VisualizationInfo', {
    $: { Guid: guid },
    Components: version === '2.1' && !componentsXml ? { Visibility: visibility } : componentsXml,
    OrthogonalCamera: o
      ? { CameraViewPoint: xyz(o.camera_view_point), CameraDirection: xyz(o.camera_direction), CameraUpVector: xyz(o.camera_up_vector), ViewToWorldScale: String(o.view_to_world_scale), ...aspect(o.aspect_ratio) }
      : undefined,
    PerspectiveCamera:
      p && !o
        ? {
            CameraViewPoint: xyz(p.camera_view_point),
            CameraDirection: xyz(p.camera_direction),
            CameraUpVector: xyz(p.camera_up_vector),
            FieldOfView: String(version === '2.1' ? Math.min(FOV_21[1], Math.max(FOV_21[0], p.field_of_view)) : p.field_of_view),
            ...aspect(p.aspect_ratio),
          }
        : undefined,
    Lines: lines.length ? { Line: lines } : undefined,
    ClippingPlanes: planes.length ? { ClippingPlane: planes } : undefined,
    ...(version === '3.0' ? { Bitmaps: bitmaps.length ? { Bitmap: bitmaps } : undefined } : { Bitmap: bitmaps.length ? bitmaps : undefined }),
  });
  return { xml, files };
}
