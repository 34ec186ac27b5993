import { unzipSync, strFromU8 } from 'fflate';
import type { BcfComponent, BcfPoint, BcfViewpoint, BcfViewSetupHints } from '../../src/core/bcf/viewpoint-types';

/**
 * buildingSMART's BCF test cases, read at run time from the BIM_BCF folder (default
 * ../shared/bcf), which the demo backend serves at /bcf/ (never copied into the project).
 * A .bcf is a zip of topics (markup.bcf, *.bcfv visualisation XML, snapshots); here the
 * visinfo XML becomes the BCF-API JSON viewpoint the viewer takes (test code only).
 */
export const BCF_MODELS = {
  architectural: '/bcf/test-cases/IFCs/Architectural.ifc',
  mep: '/bcf/test-cases/IFCs/MEP.ifc',
} as const;

/** The Visualization cases of BCF 2.1 and 3.0, by their folder and file. */
export const BCF_CASES = [
  'v2.1/Visualization/All parts of decomposed object except one visible/All parts except one visible.bcf',
  'v2.1/Visualization/Component Selection/Component Selection.bcf',
  'v2.1/Visualization/One part of decomposed object visible/One part visible.bcf',
  'v2.1/Visualization/OrthogonalCamera/OrthogonalCamera.bcf',
  'v2.1/Visualization/PerspectiveCamera/PerspectiveCamera.bcf',
  'v2.1/Visualization/Single visible space/case.bcf',
  'v2.1/Visualization/Single visible wall/case.bcf',
  'v2.1/Visualization/all components and spaces visible/case.bcf',
  'v2.1/Visualization/single invisible wall/case.bcf',
  'v3.0/Visualization/All parts of curtain wall visible/all parts of curtain walls visible.bcf',
  'v3.0/Visualization/All parts of decomposed object except one visible/all parts except one visible.bcf',
  'v3.0/Visualization/Component selection/component selection.bcf',
  'v3.0/Visualization/One part of decomposed object visible/one part of decomposed object visible.bcf',
  'v3.0/Visualization/Orthogonal camera/orthogonal camera.bcf',
  'v3.0/Visualization/Perspective camera/perspective camera.bcf',
  'v3.0/Visualization/Single invisible wall/single invisible wall.bcf',
  'v3.0/Visualization/Single visible space/single visible space.bcf',
  'v3.0/Visualization/Single visible wall/single visible wall.bcf',
  'v3.0/Visualization/all components and spaces visible/all components and spaces visible.bcf',
] as const;

export interface BcfCase {
  name: string;
  /** Each visualisation file of the archive as a viewpoint, by its path in the zip. */
  viewpoints: { file: string; viewpoint: BcfViewpoint }[];
  /** IFC files carried in the archive (some 2.1 cases bring the model they were made on). */
  models: { file: string; bytes: Uint8Array }[];
}

/** A file of the BCF folder; a missing folder or file fails with the server's reason. */
export async function bcfBytes(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${(await response.text()).trim()}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** One test case archive, unzipped, its viewpoints as BCF-API JSON. */
export async function readBcfCase(path: string): Promise<BcfCase> {
  const files = unzipSync(await bcfBytes(`/bcf/test-cases/${path.split('/').map(encodeURIComponent).join('/')}`));
  const names = Object.keys(files).sort();
  return {
    name: path,
    viewpoints: names.filter((f) => f.toLowerCase().endsWith('.bcfv')).map((file) => ({ file, viewpoint: visinfoToViewpoint(strFromU8(files[file])) })),
    models: names.filter((f) => f.toLowerCase().endsWith('.ifc')).map((file) => ({ file, bytes: files[file] })),
  };
}

/**
 * BCF-XML visualisation info (visinfo.xsd 2.1 or 3.0) as a BCF-API viewpoint. 2.1 keeps
 * ViewSetupHints under Components and a colour's Components directly under Color; 3.0
 * moved the hints into Visibility and wraps a colour's components in Components.
 */
export function visinfoToViewpoint(xml: string): BcfViewpoint {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  const error = doc.querySelector('parsererror');
  if (error) throw new Error(`visinfo is not XML: ${error.textContent}`);
  const root = doc.documentElement;
  const viewpoint: BcfViewpoint = {};
  const guid = root.getAttribute('Guid');
  if (guid) viewpoint.guid = guid;
  const perspective = child(root, 'PerspectiveCamera');
  const orthogonal = child(root, 'OrthogonalCamera');
  const camera = (el: Element) => ({
    camera_view_point: xyz(child(el, 'CameraViewPoint')!),
    camera_direction: xyz(child(el, 'CameraDirection')!),
    camera_up_vector: xyz(child(el, 'CameraUpVector')!),
    ...(child(el, 'AspectRatio') ? { aspect_ratio: number(child(el, 'AspectRatio')!) } : {}),
  });
  if (perspective) viewpoint.perspective_camera = { ...camera(perspective), field_of_view: number(child(perspective, 'FieldOfView')!) };
  if (orthogonal) viewpoint.orthogonal_camera = { ...camera(orthogonal), view_to_world_scale: number(child(orthogonal, 'ViewToWorldScale')!) };
  const planes = children(child(root, 'ClippingPlanes'), 'ClippingPlane');
  if (planes.length) viewpoint.clipping_planes = planes.map((p) => ({ location: xyz(child(p, 'Location')!), direction: xyz(child(p, 'Direction')!) }));
  const components = child(root, 'Components');
  if (!components) return viewpoint;
  viewpoint.components = {};
  const selection = child(components, 'Selection');
  if (selection) viewpoint.components.selection = componentList(selection);
  const visibility = child(components, 'Visibility');
  if (visibility) {
    const hints = child(visibility, 'ViewSetupHints') ?? child(components, 'ViewSetupHints');
    viewpoint.components.visibility = {
      default_visibility: visibility.getAttribute('DefaultVisibility') === 'true',
      exceptions: componentList(child(visibility, 'Exceptions')),
      ...(hints ? { view_setup_hints: setupHints(hints) } : {}),
    };
  }
  const coloring = child(components, 'Coloring');
  if (coloring) {
    viewpoint.components.coloring = children(coloring, 'Color').map((color) => ({
      color: color.getAttribute('Color')!,
      components: componentList(child(color, 'Components') ?? color),
    }));
  }
  return viewpoint;
}

function child(el: Element | null | undefined, name: string): Element | null {
  return children(el, name)[0] ?? null;
}

function children(el: Element | null | undefined, name: string): Element[] {
  return el ? [...el.children].filter((c) => c.localName === name) : [];
}

function number(el: Element): number {
  const value = Number(el.textContent);
  if (!Number.isFinite(value)) throw new Error(`<${el.localName}> is not a number: ${el.textContent}`);
  return value;
}

function xyz(el: Element): BcfPoint {
  return { x: number(child(el, 'X')!), y: number(child(el, 'Y')!), z: number(child(el, 'Z')!) };
}

function componentList(el: Element | null): BcfComponent[] {
  return children(el, 'Component').map((c) => {
    const component: BcfComponent = { ifc_guid: c.getAttribute('IfcGuid') };
    const system = child(c, 'OriginatingSystem')?.textContent?.trim();
    const tool = child(c, 'AuthoringToolId')?.textContent?.trim();
    if (system) component.originating_system = system;
    if (tool) component.authoring_tool_id = tool;
    return component;
  });
}

function setupHints(el: Element): BcfViewSetupHints {
  const flag = (name: string) => el.getAttribute(name) === 'true';
  return { spaces_visible: flag('SpacesVisible'), space_boundaries_visible: flag('SpaceBoundariesVisible'), openings_visible: flag('OpeningsVisible') };
}
