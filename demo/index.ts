/**
 * The demo page: one <bim-viewer-3d>, models loaded through the token flow a real
 * backend uses (POST .../viewer3d/token, then viewer.loadUrl(url)), buttons for the
 * main methods, and a live log of every viewer.* event.
 *
 * Everything that comes from a model (names, ids, properties) is untrusted text: it is
 * only ever put into the page with textContent.
 */
import { onIfcFileDrop } from './file-drop.js';
import { VIEWER3D_EVENTS, type BimViewer3d, type StreamingProgress, type ViewName } from '../src/index.js'; // registers <bim-viewer-3d>

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const viewer = $<BimViewer3d>('viewer');
const projectSelect = $<HTMLSelectElement>('project');
const replaceBox = $<HTMLInputElement>('replace');
const output = $<HTMLPreElement>('output');
const screenshotImg = $<HTMLImageElement>('screenshot');
const eventLog = $<HTMLOListElement>('event-log');
const status = $<HTMLParagraphElement>('status');
const progressBox = $<HTMLDivElement>('progress');
const progressBar = $<HTMLProgressElement>('progress-bar');
const progressText = $<HTMLSpanElement>('progress-text');
const projectionButton = $<HTMLButtonElement>('projection');
const dropHint = $<HTMLDivElement>('drop-hint');

// For poking at the viewer from the browser console: `await viewer.getProducts()`.
(window as unknown as { viewer: BimViewer3d }).viewer = viewer;

// ---- token flow ---------------------------------------------------------------

/** What an application's backend does for its page: ask for a 3D token URL. */
async function requestToken(project: string): Promise<string> {
  const response = await fetch(`/v2/projects/${encodeURIComponent(project)}/viewer3d/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  const body = (await response.json().catch(() => ({}))) as { url?: string; error?: { message?: string } };
  if (!response.ok || !body.url) throw new Error(`token request failed (${response.status}): ${body.error?.message ?? response.statusText}`);
  return body.url;
}

async function unloadAll(): Promise<void> {
  for (const model of await viewer.modelInfo()) await viewer.unloadModel(model.modelId);
}

async function loadProject(project: string): Promise<void> {
  const url = new URL(location.href);
  url.searchParams.set('project', project);
  history.replaceState(null, '', url);
  if (replaceBox.checked) await unloadAll();
  setStatus(`Requesting a token for project "${project}"...`);
  const tokenUrl = await requestToken(project);
  setStatus(`Loading ${tokenUrl}`);
  const models = await viewer.loadUrl(tokenUrl);
  setStatus(`Loaded ${models.map((m) => m.name || m.modelId).join(', ')}. Click an object to select it.`);
}

// ---- buttons ------------------------------------------------------------------

const selected = () => viewer.eachSelected();

function show(value: unknown): void {
  screenshotImg.hidden = true;
  output.textContent = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

const actions: Record<string, () => Promise<unknown>> = {
  showAll: () => viewer.showAll(),
  hideSelected: async () => viewer.hide(await selected()),
  hideOthers: async () => {
    const ids = await selected();
    await viewer.hideAll();
    await viewer.show(ids);
  },
  hideAll: () => viewer.hideAll(),
  translucentSelected: async () => viewer.translucent(await selected()),
  isolate: async () => {
    const ids = await selected();
    await viewer.show(ids);
    await viewer.translucentAll();
    await viewer.opaque(ids);
  },
  opaqueAll: () => viewer.opaqueAll(),
  colorRed: async () => viewer.color('#ff0000', await selected()),
  resetColors: () => viewer.resetColors(),
  selectAll: async () => viewer.select(await viewer.each()),
  deselectAll: () => viewer.deselectAll(),
  lookAt: async () => viewer.lookAt(await selected()),
  toggleProjection: async () => {
    const current = await viewer.viewpoint();
    const next = await viewer.viewpoint({ type: current.type === 'perspective' ? 'orthogonal' : 'perspective' });
    projectionButton.textContent = next.type === 'perspective' ? 'Orthogonal' : 'Perspective';
  },
  products: async () => show(await viewer.getProducts(await selected())),
  objectInfo: async () => show(await viewer.objectInfo(await selected())),
  modelInfo: async () => show(await viewer.modelInfo()),
  viewpoint: async () => show(await viewer.viewpoint()),
  screenshot: async () => {
    const png = await viewer.screenshot();
    output.textContent = `${png.slice(0, 40)}... (${png.length} characters)`;
    screenshotImg.src = png;
    screenshotImg.hidden = false;
  },
  unload: () => unloadAll(),
};

/** Runs a button's work; failures are shown (the viewer also fires viewer.error). */
async function perform(label: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    show(`${label} failed: ${(error as Error).message}`);
  }
}

document.querySelector('.panel')!.addEventListener('click', (event) => {
  const button = (event.target as HTMLElement).closest('button');
  if (!button) return;
  const action = button.dataset.action;
  const view = button.dataset.view as ViewName | undefined;
  if (action && actions[action]) void perform(action, actions[action]);
  else if (view) void perform(`viewpoint ${view}`, () => viewer.viewpoint(view));
});

$<HTMLFormElement>('load-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void perform('load', () => loadProject(projectSelect.value));
});
$('clear-output').addEventListener('click', () => show(''));
$('clear-log').addEventListener('click', () => eventLog.replaceChildren());

// ---- event log ----------------------------------------------------------------

const MAX_LOG_ENTRIES = 300;
/** Events that fire in bursts: consecutive ones update one log line. */
const COALESCED = new Set<string>(['viewer.streamingprogress', 'viewer.viewpoint']);

function logEvent(name: string, detail: unknown): void {
  const text = detail === undefined ? '' : JSON.stringify(detail);
  // progress of different models stays on different lines
  const key = `${name} ${(detail as { progress?: StreamingProgress })?.progress?.modelId ?? ''}`;
  const last = eventLog.lastElementChild as HTMLLIElement | null;
  if (last && COALESCED.has(name) && last.dataset.key === key) {
    const count = Number(last.dataset.count ?? '1') + 1;
    last.dataset.count = String(count);
    fillEntry(last, name, text, count);
    return;
  }
  const entry = document.createElement('li');
  entry.dataset.event = name;
  entry.dataset.key = key;
  if (name === 'viewer.error') entry.classList.add('error');
  fillEntry(entry, name, text, 1);
  eventLog.append(entry);
  while (eventLog.childElementCount > MAX_LOG_ENTRIES) eventLog.firstElementChild!.remove();
  eventLog.scrollTop = eventLog.scrollHeight;
}

function fillEntry(entry: HTMLLIElement, name: string, detail: string, count: number): void {
  const time = document.createElement('time');
  time.textContent = new Date().toLocaleTimeString();
  const label = document.createElement('strong');
  label.textContent = count > 1 ? `${name} ×${count}` : name;
  const body = document.createElement('code');
  body.textContent = detail.length > 500 ? `${detail.slice(0, 500)}…` : detail;
  entry.title = detail; // the whole detail on hover
  entry.replaceChildren(time, ' ', label, ' ', body);
}

for (const name of VIEWER3D_EVENTS) {
  viewer.addEventListener(name, (event) => logEvent(name, (event as CustomEvent).detail));
}

// ---- status and progress ------------------------------------------------------

function setStatus(text: string): void {
  status.textContent = text;
}

let hideProgressTimer: number | undefined;

function showProgress({ modelId, progress, phase }: StreamingProgress): void {
  window.clearTimeout(hideProgressTimer);
  progressBox.hidden = false;
  progressBar.value = progress;
  progressText.textContent = `${modelId}: ${phase} ${Math.round(progress * 100)}%`;
  if (phase === 'done') hideProgressTimer = window.setTimeout(() => (progressBox.hidden = true), 800);
}

viewer.addEventListener('viewer.streamingprogress', (event) => showProgress(event.detail.progress));
viewer.addEventListener('viewer.load', () => {
  hideProgressTimer = window.setTimeout(() => (progressBox.hidden = true), 800);
});
viewer.addEventListener('viewer.error', (event) => {
  progressBox.hidden = true;
  setStatus(`Error (${event.detail.type}): ${event.detail.message}`);
});
viewer.addEventListener('viewer.select', (event) => {
  const count = event.detail.selected.length;
  setStatus(count === 0 ? 'Nothing selected.' : `${count} selected: ${event.detail.selected.slice(0, 8).join(', ')}${count > 8 ? ', ...' : ''}`);
});

// ---- drag and drop of local IFC files -----------------------------------------

onIfcFileDrop(dropHint, {
  drop: (files) => files.forEach((file) => void perform(`loading ${file.name}`, () => loadFile(file))),
  notIfc: (names) => show(`Not an .ifc file: ${names.join(', ')}`),
});

async function loadFile(file: File): Promise<void> {
  const url = URL.createObjectURL(file);
  try {
    setStatus(`Loading ${file.name} (${(file.size / 1e6).toFixed(1)} MB)`);
    await viewer.loadModel(url, { modelId: file.name, name: file.name });
    setStatus(`Loaded ${file.name}.`);
  } finally {
    URL.revokeObjectURL(url);
  }
}

// ---- start ----------------------------------------------------------------------

void perform('load', () => loadProject(projectSelect.value));
