// The part of both point cloud bench pages that is the same for each viewer: the same
// canvas, the same camera views, frames forced to finish, points drawn counted at the
// WebGL API (drawArrays of POINTS), and a pick timed at the same pixels.
//
// An adapter (pointcloud-ours.js, pointcloud-potree.js) implements:
//   setup(container)          create the viewer
//   load(url, budget)         start loading the cloud under a point budget; resolves with
//                             the cloud's bounds {min, max} (z up) once its root is drawn
//   setCamera(eye, target)    the same view for both (vertical fov 60 degrees, z up)
//   update()                  what the viewer does before a frame (choose nodes, start loads)
//   loading()                 whether nodes are still on their way
//   render()                  draw one frame
//   gl()                      the WebGL context
//   pick(x, y)                the picked point [x, y, z] in the cloud's coordinates, or null

export const WIDTH = 1280;
export const HEIGHT = 800;
export const FOV = 60;

const counter = { on: false, points: 0 };
for (const proto of [globalThis.WebGL2RenderingContext?.prototype, globalThis.WebGLRenderingContext?.prototype]) {
  const draw = proto?.drawArrays;
  if (!draw) continue;
  proto.drawArrays = function (mode, first, count) {
    if (counter.on && mode === 0) counter.points += count;
    return draw.call(this, mode, first, count);
  };
}

const finish = (gl) => gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const frameDone = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));

/** Views around the cloud: 30 degrees above, framing `fill` of its bounding sphere (1: all of it). */
export function views(bounds, steps, fill = 1) {
  const c = [0, 1, 2].map((i) => (bounds.min[i] + bounds.max[i]) / 2);
  const radius = Math.hypot(...[0, 1, 2].map((i) => bounds.max[i] - bounds.min[i])) / 2;
  const distance = (fill * radius) / Math.sin(((FOV / 2) * Math.PI) / 180);
  const out = [];
  for (let i = 0; i < steps; i++) {
    const a = ((45 + (i * 360) / steps) * Math.PI) / 180;
    const e = (30 * Math.PI) / 180;
    out.push({ eye: [c[0] + Math.cos(e) * distance * Math.cos(a), c[1] + Math.cos(e) * distance * Math.sin(a), c[2] + Math.sin(e) * distance], target: c });
  }
  return out;
}

export function install(name, adapter) {
  const container = document.getElementById('viewer');
  container.style.cssText = `width:${WIDTH}px;height:${HEIGHT}px`;
  let bounds = null;
  /** Updates and draws until no node is on its way (or `limitMs` passed); resolves with the frames drawn. */
  const settle = async (limitMs) => {
    const t0 = performance.now();
    let frames = 0;
    do {
      adapter.update();
      adapter.render();
      frames++;
      await frameDone();
    } while ((adapter.loading() || frames < 3) && performance.now() - t0 < limitMs);
    return frames;
  };
  globalThis.__cloud = {
    name,
    async setup() {
      await adapter.setup(container);
    },
    /** first_ms: asking for the URL -> the end of the first frame with points; all_ms: the view complete. */
    async load(url, budget) {
      const t0 = performance.now();
      bounds = await adapter.load(url, budget);
      const [view] = views(bounds, 1);
      adapter.setCamera(view.eye, view.target);
      let first = null;
      while (first === null && performance.now() - t0 < 60_000) {
        adapter.update();
        counter.points = 0;
        counter.on = true;
        adapter.render();
        finish(adapter.gl());
        counter.on = false;
        if (counter.points > 0) first = performance.now() - t0;
        else await frameDone();
      }
      await settle(120_000);
      return { first_ms: first, all_ms: performance.now() - t0 };
    },
    /** Frames at rest in `steps` views (each view's nodes loaded first): median and max frame time, points drawn. */
    async frames(steps, fill) {
      const times = [];
      let points = 0;
      for (const view of views(bounds, steps, fill)) {
        adapter.setCamera(view.eye, view.target);
        await settle(60_000);
        adapter.update();
        finish(adapter.gl());
        counter.points = 0;
        counter.on = true;
        const t = performance.now();
        adapter.render();
        finish(adapter.gl());
        times.push(performance.now() - t);
        counter.on = false;
        points = Math.max(points, counter.points);
      }
      return { frame_ms: median(times), frame_max_ms: Math.max(...times), points };
    },
    /** Median time of a pick at 9 pixels around the middle; how many hit a point. */
    async pick() {
      const times = [];
      let hits = 0;
      for (const [fx, fy] of [[0.5, 0.5], [0.4, 0.5], [0.6, 0.5], [0.5, 0.4], [0.5, 0.6], [0.4, 0.4], [0.6, 0.6], [0.4, 0.6], [0.6, 0.4]]) {
        const t = performance.now();
        const hit = await adapter.pick(Math.round(WIDTH * fx), Math.round(HEIGHT * fy));
        times.push(performance.now() - t);
        if (hit) hits++;
      }
      return { pick_ms: median(times), pick_hits: hits };
    },
  };
}
