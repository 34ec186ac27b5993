// Our viewer twice in one page, the IFC in one and the same model's scene in the other
// (bench/frames.mjs): each orbit frame and each pick of the one is followed by the same
// of the other, their order swapped every step, so that the software renderer's speed,
// which drifts within a page and from page to page, meets both alike.
import '../../src/elements/bim-viewer-3d.ts';
import { preload } from '../../src/core/engine.ts';
import { FOV, HEIGHT, WIDTH, cameraPath, finish, pickPoints } from './harness.js';
import { placeCamera } from './ours-adapter.js';

void preload();
const FORMATS = ['ifc', 'scene'];
/** Where to pick (pointsOnModel), and how often per point and round: about 5 ms (a pick of a small model takes microseconds, the page's timer has 0.1 ms steps). */
let points = [];
let repeats = 1;
const cores = {};
const paths = {};

async function open(format, url) {
  const bytes = await (await fetch(url)).arrayBuffer();
  const el = document.createElement('bim-viewer-3d');
  el.style.cssText = 'display:block;width:100%;height:100%';
  document.getElementById(format).appendChild(el);
  await el.updateComplete;
  const core = el.core;
  core.resize();
  if (format === 'ifc') await core.warmedUp;
  await core.loadModel({ url: `${location.origin}/model.${format}`, id: 'model', bytes, format }, undefined, () => {});
  return core;
}

/** One orbit frame (or, with `atRest`, a complete one) of `format`'s viewer at `step`, forced to finish; its ms. */
function frame(format, step, atRest = false) {
  const core = cores[format];
  const t0 = performance.now();
  placeCamera(core, step.eye, step.target, step.up, FOV, step.distance);
  core.render(core.rig.camera, atRest);
  finish(core.renderer.getContext());
  return performance.now() - t0;
}

/**
 * Up to 20 points of a 32 x 20 grid where the IFC's viewer hits the model from the start
 * view, spread over it: the main bench's 5 x 4 points miss some models altogether, and a
 * pick that hits nothing measures nothing.
 */
function pointsOnModel() {
  const on = [];
  for (let j = 0; j < 20; j++) for (let i = 0; i < 32; i++) {
    const x = Math.round(WIDTH * ((i + 0.5) / 32));
    const y = Math.round(HEIGHT * ((j + 0.5) / 20));
    if (cores.ifc.pickAt(x, y)) on.push([x, y]);
  }
  if (on.length <= 20) return on.length ? on : pickPoints();
  return Array.from({ length: 20 }, (_, k) => on[Math.floor((k * on.length) / 20)]);
}

/** The two formats in the order of step `i` of round `round`: each goes first half the time. */
const order = (i, round) => ((i + round) % 2 ? FORMATS : [...FORMATS].reverse());
const idle = () => new Promise((resolve) => setTimeout(resolve, 0));

globalThis.__pair = {
  ready: true,
  /** Opens the IFC and the scene, one after the other, and finds where to pick; resolves with each one's start view (its eye), to check they are the same. */
  async open(urls, steps) {
    for (const format of FORMATS) {
      cores[format] = await open(format, urls[format]);
      const box = cores[format].sceneBox();
      paths[format] = cameraPath({ min: box.min.toArray(), max: box.max.toArray(), up: 'z' }, steps);
      frame(format, paths[format][0], true);
    }
    points = pointsOnModel();
    let picks = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 20) {
      for (const [x, y] of points) cores.ifc.pickAt(x, y);
      picks += points.length;
    }
    repeats = Math.max(1, Math.ceil(5 / ((performance.now() - t0) / picks)));
    return Object.fromEntries(FORMATS.map((f) => [f, paths[f][0].eye]));
  },
  /** One full turn, frame by frame in turn; each format's ms per frame. */
  async orbit(round) {
    // Each canvas takes the upper place every other round.
    FORMATS.forEach((format, k) => (document.getElementById(format).style.top = `${((k + round) % 2) * HEIGHT}px`));
    const times = { ifc: [], scene: [] };
    const steps = paths.ifc.length;
    for (let i = 1; i < steps; i++) {
      for (const format of order(i, round)) times[format].push(frame(format, paths[format][i]));
      // Between frames, as between animation frames (after both: a pause between the two
      // would let the first one's rest timer draw a complete frame, core/scene/moving-detail.ts).
      await idle();
    }
    for (const format of FORMATS) frame(format, paths[format][0], true);
    return times;
  },
  /**
   * The pick points, each picked `repeats` times by one viewer and then by the other;
   * each format's ms per pick and the object it hit.
   */
  async pick(round) {
    const times = { ifc: [], scene: [] };
    const hits = { ifc: [], scene: [] };
    points.forEach(([x, y], i) => {
      for (const format of order(i, round)) {
        const core = cores[format];
        const t0 = performance.now();
        for (let k = 1; k < repeats; k++) core.pickAt(x, y);
        const hit = core.pickAt(x, y);
        times[format].push((performance.now() - t0) / repeats);
        hits[format].push(hit ? core.describeHit(hit)[0] : null);
      }
    });
    await idle();
    return { times, hits };
  },
};
