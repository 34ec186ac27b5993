/**
 * The plan demo: <bim-viewer-3d> and <bim-viewer-2d> side by side on the same project,
 * each loaded through its own token (POST .../viewer3d/token and .../viewer2d/token),
 * with a storey picker and a simple link between them: the red arrow of the plan shows
 * the 3D camera, dragging it moves the camera, the storey follows the camera's height,
 * and selections are shared. (The full 2D/3D integration is the widget's job.)
 *
 * Everything that comes from a model (names, ids) is untrusted text: it is only ever put
 * into the page with textContent.
 */
import { VIEWER2D_EVENTS, type BimViewer2d, type BimViewer3d, type Viewpoint } from '../src/index.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const viewer3d = $<BimViewer3d>('viewer3d');
const viewer2d = $<BimViewer2d>('viewer2d');
const projectSelect = $<HTMLSelectElement>('project');
const storeySelect = $<HTMLSelectElement>('storey');
const follow = $<HTMLInputElement>('follow');
const eventLog = $<HTMLOListElement>('event-log');
const status2d = $<HTMLParagraphElement>('status2d');
const status3d = $<HTMLParagraphElement>('status3d');

Object.assign(window, { viewer3d, viewer2d });

/** Eye height above the storey when the arrow moves the 3D camera. */
const EYE_HEIGHT = 1.6;

async function requestToken(kind: 'viewer3d' | 'viewer2d', project: string): Promise<string> {
  const response = await fetch(`/v2/projects/${encodeURIComponent(project)}/${kind}/token`, { method: 'POST' });
  const body = (await response.json().catch(() => ({}))) as { url?: string; error?: { message?: string } };
  if (!response.ok || !body.url) throw new Error(`${kind} token request failed (${response.status}): ${body.error?.message ?? response.statusText}`);
  return body.url;
}

async function loadProject(project: string) {
  const url = new URL(location.href);
  url.searchParams.set('project', project);
  history.replaceState(null, '', url);
  storeySelect.disabled = true;
  storeySelect.replaceChildren();
  for (const model of await viewer3d.modelInfo()) await viewer3d.unloadModel(model.modelId);
  const [url3d, url2d] = await Promise.all([requestToken('viewer3d', project), requestToken('viewer2d', project)]);
  status2d.textContent = 'Loading the plans...';
  status3d.textContent = 'Loading the model...';
  const plans = viewer2d.loadUrl(url2d).then(() => {
    fillStoreys();
    status2d.textContent = '2D: drag to pan, wheel to zoom, click a space to select it, drag the red arrow to move the 3D camera.';
  });
  const model = viewer3d.loadUrl(url3d).then(() => {
    status3d.textContent = '3D: drag to orbit, right drag to pan, wheel to move.';
  });
  await Promise.all([plans, model]);
  await arrowFromCamera(await viewer3d.viewpoint());
}

/** The storey picker: every storey of every model, lowest first; the first with spaces shown. */
function fillStoreys() {
  const storeys = viewer2d.getStoreys({ all: true });
  storeySelect.replaceChildren(...storeys.map((storey) => {
    const option = document.createElement('option');
    option.value = storey.id;
    option.textContent = `${storey.name} (${storey.elevation.toFixed(2)} m)`;
    return option;
  }));
  storeySelect.disabled = storeys.length === 0;
  const first = storeys.find((s) => viewer2d.getSpaces({ all: true, storeyId: s.id }).length > 0) ?? storeys[0];
  if (first) void showStorey(first.id);
}

async function showStorey(id: string) {
  storeySelect.value = id;
  if (viewer2d.getStoreys({ visible: true, all: true }).some((s) => s.id === id)) return;
  await viewer2d.hideStoreys();
  await viewer2d.showStorey(id);
}

storeySelect.addEventListener('change', () => void showStorey(storeySelect.value));

// ---- the link between 2D and 3D ----------------------------------------------------

/** The plan's arrow at the 3D camera (and the storey at its height). */
async function arrowFromCamera(vp: Viewpoint) {
  if (!follow.checked || viewer2d.getStoreys().length === 0) return;
  const horizontal = Math.hypot(vp.direction.x, vp.direction.y);
  await viewer2d.setViewpoint({
    location: { x: vp.location.x, y: vp.location.y },
    ...(horizontal > 1e-6 ? { direction: { x: vp.direction.x / horizontal, y: vp.direction.y / horizontal } } : {}),
  });
  // Inside the building's height the plan shows the camera's storey; from above (the
  // first view of a model) it keeps the storey picked.
  const storeys = viewer2d.getStoreys();
  const top = Math.max(...storeys.map((s) => s.elevation));
  if (vp.location.z - EYE_HEIGHT > top + 3) return;
  const storey = viewer2d.getStoreyByElevation(vp.location.z - EYE_HEIGHT + 0.1);
  if (storey) await showStorey(storey.id);
}

viewer3d.addEventListener('viewer.viewpoint', (e) => void arrowFromCamera(e.detail.viewpoint));

viewer2d.addEventListener('viewer2d.viewpoint', (e) => {
  if (!follow.checked) return;
  const { location, direction } = e.detail.viewpoint;
  void viewer3d.viewpoint({
    location: { x: location.x, y: location.y, z: location.z + EYE_HEIGHT },
    direction: { x: direction.x, y: direction.y, z: -0.15 },
    up: { x: 0, y: 0, z: 1 },
  });
});

viewer2d.addEventListener('viewer2d.select', (e) => {
  void (async () => {
    await viewer3d.deselectAll();
    if (e.detail.selected.length) await viewer3d.select(e.detail.selected);
  })();
});

viewer3d.addEventListener('viewer.select', (e) => void viewer2d.select(e.detail.selected));

// ---- 2D tools ------------------------------------------------------------------------

let longNames = false;
const actions: Record<string, (button: HTMLButtonElement) => Promise<unknown> | void> = {
  names: async (button) => {
    longNames = !longNames;
    await viewer2d.setSpaceNameFormat(longNames ? 'long' : 'regular');
    button.textContent = longNames ? 'short names' : 'long names';
  },
  arrow: async (button) => {
    if (viewer2d.showViewpoint) await viewer2d.hideViewpoint();
    else await viewer2d.revealViewpoint();
    button.textContent = viewer2d.showViewpoint ? 'hide arrow' : 'show arrow';
  },
  fit: () => viewer2d.lookAt(storeySelect.value),
  marker: () => {
    const { location } = viewer2d.getViewpoint();
    viewer2d.addMarker({ x: location.x, y: location.y, text: `${location.x.toFixed(1)}, ${location.y.toFixed(1)}`, clickable: true, draggable: true, color: '#1e73d8' });
  },
  colour: async () => {
    const spaces = viewer2d.getSpaces({ all: true, visible: true });
    const boxes = spaces.map((s) => s.boundingBox!.width * s.boundingBox!.height);
    const max = Math.max(...boxes, 1);
    for (const [i, space] of spaces.entries()) await viewer2d.setColor(space.id, `hsla(${Math.round(200 - (160 * boxes[i]) / max)}, 70%, 60%, 0.55)`);
  },
  clear: async () => {
    await viewer2d.clearColors();
    await viewer2d.clearMarkers();
  },
};

for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-action]')) {
  button.addEventListener('click', () => {
    void Promise.resolve(actions[button.dataset.action ?? '']?.(button)).catch((e: Error) => log('error', e.message, true));
  });
}

// ---- event log ------------------------------------------------------------------------

function log(name: string, detail: unknown, isError = false) {
  const item = document.createElement('li');
  if (isError) item.className = 'error';
  const time = document.createElement('time');
  time.textContent = new Date().toLocaleTimeString();
  const strong = document.createElement('strong');
  strong.textContent = ` ${name} `;
  const text = document.createElement('span');
  text.textContent = JSON.stringify(detail, (_k, v) => (typeof v === 'number' ? Math.round(v * 1000) / 1000 : v));
  item.append(time, strong, text);
  eventLog.prepend(item);
  while (eventLog.childElementCount > 200) eventLog.lastElementChild?.remove();
}

for (const name of VIEWER2D_EVENTS) {
  viewer2d.addEventListener(name, (e) => log(name, (e as CustomEvent).detail, name === 'viewer2d.loadfail' || name === 'viewer2d.error'));
}
viewer3d.addEventListener('viewer.error', (e) => log('viewer.error', e.detail, true));
$('clear-log').addEventListener('click', () => eventLog.replaceChildren());

$<HTMLFormElement>('load-form').addEventListener('submit', (e) => {
  e.preventDefault();
  void loadProject(projectSelect.value).catch((error: Error) => log('load', error.message, true));
});

void loadProject(projectSelect.value).catch((error: Error) => log('load', error.message, true));
