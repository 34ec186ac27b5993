// The part of every bench page that is the same for all viewers: it fetches the IFC
// bytes, times the load from "bytes in hand" to "first complete frame", drives the same
// camera path and the same pick points through each viewer's own API, and counts draw
// calls and triangles at the WebGL API (so every viewer is counted the same way).
//
// A viewer adapter (ours.js, thatopen.js, xeokit.js, raw.js) implements:
//   setup(container, {cold}) create the viewer, initialise its engine (not timed in load_ms;
//                           with cold, part of cold_ms: do only what a page does before its
//                           first load, e.g. ours does not wait for its warm-up)
//   load(bytes)             parse and show the model; resolves when it is in the scene (ready_ms)
//   loaded()                optional: resolves when the load's remaining work is done (ours: the
//                           hidden spaces, streamed after the model is shown); awaited after the
//                           load clock stops, before anything else is measured
//   bounds()                {min: [x,y,z], max: [x,y,z], up: 'y'|'z'} in the viewer's world
//   setCamera(eye, target, up, fov)   the same view for everyone (vertical fov, degrees)
//   settle()                optional: wait until the current view is complete (streaming viewers)
//   render()                draw one frame synchronously
//   gl()                    the WebGL context of the canvas (to force frames to finish)
//   pick(x, y)              pick at CSS pixel (x, y); returns an id or null (may be async)
//   frameHook()             optional: per-frame work the viewer does when its camera moves

export const WIDTH = 1280;
export const HEIGHT = 800;
export const FOV = 60;
/** Default orbit: 60 frames of 6 degrees (the runner asks for fewer, larger steps on big models: always one full turn). */
export const ORBIT_STEPS = 60;

// ---- draw call / triangle counting at the WebGL API -----------------------------------

const counter = { on: false, calls: 0, triangles: 0 };

function primitives(mode, count) {
  if (mode === 4) return count / 3; // TRIANGLES
  if (mode === 5 || mode === 6) return Math.max(0, count - 2); // STRIP, FAN
  return 0;
}

function wrap(proto, name, triangles) {
  const original = proto[name];
  if (typeof original !== 'function' || original.__bench) return;
  const wrapped = function (...args) {
    if (counter.on) {
      counter.calls++;
      counter.triangles += triangles(args);
    }
    return original.apply(this, args);
  };
  wrapped.__bench = true;
  proto[name] = wrapped;
}

function sum(list, offset, n) {
  let total = 0;
  for (let i = 0; i < n; i++) total += list[offset + i];
  return total;
}

for (const proto of [globalThis.WebGL2RenderingContext?.prototype, globalThis.WebGLRenderingContext?.prototype]) {
  if (!proto) continue;
  wrap(proto, 'drawArrays', ([mode, , count]) => primitives(mode, count));
  wrap(proto, 'drawElements', ([mode, count]) => primitives(mode, count));
  wrap(proto, 'drawArraysInstanced', ([mode, , count, instances]) => primitives(mode, count) * instances);
  wrap(proto, 'drawElementsInstanced', ([mode, count, , , instances]) => primitives(mode, count) * instances);
  wrap(proto, 'drawRangeElements', ([mode, , , count]) => primitives(mode, count));
  const getExtension = proto.getExtension;
  proto.getExtension = function (name) {
    const ext = getExtension.call(this, name);
    if (ext && /multi_draw$/i.test(name)) {
      const p = Object.getPrototypeOf(ext);
      wrap(p, 'multiDrawArraysWEBGL', ([mode, , , counts, countsOffset, n]) => primitives(mode, sum(counts, countsOffset, n)));
      wrap(p, 'multiDrawElementsWEBGL', ([mode, counts, countsOffset, , , , n]) => primitives(mode, sum(counts, countsOffset, n)));
      wrap(p, 'multiDrawArraysInstancedWEBGL', ([mode, , , counts, countsOffset, inst, instOffset, n]) => {
        let t = 0;
        for (let i = 0; i < n; i++) t += primitives(mode, counts[countsOffset + i]) * inst[instOffset + i];
        return t;
      });
      wrap(p, 'multiDrawElementsInstancedWEBGL', ([mode, counts, countsOffset, , , , inst, instOffset, n]) => {
        let t = 0;
        for (let i = 0; i < n; i++) t += primitives(mode, counts[countsOffset + i]) * inst[instOffset + i];
        return t;
      });
    }
    return ext;
  };
}

// ---- the shared camera path and pick points ------------------------------------------

/** Camera eye positions: a circle around the model centre, 30 degrees above it, framing the bounding sphere. */
export function cameraPath(bounds, steps = ORBIT_STEPS) {
  const up = bounds.up === 'y' ? [0, 1, 0] : [0, 0, 1];
  const c = [0, 1, 2].map((i) => (bounds.min[i] + bounds.max[i]) / 2);
  const radius = Math.max(1e-3, Math.hypot(...[0, 1, 2].map((i) => bounds.max[i] - bounds.min[i])) / 2);
  // Far enough for the bounding sphere to fit the vertical field of view (and the horizontal one, wider).
  const distance = radius / Math.sin(((FOV / 2) * Math.PI) / 180);
  const elevation = (30 * Math.PI) / 180;
  const path = [];
  for (let i = 0; i <= steps; i++) {
    const a = ((45 + (i * 360) / steps) * Math.PI) / 180;
    const h = Math.cos(elevation) * distance;
    const v = Math.sin(elevation) * distance;
    // Horizontal axes: x and the axis that is neither x nor up. For a y-up viewer that is -z
    // (web-ifc's frame is (x, z, -y) of IFC's), so both frames go round the same way.
    const eye = bounds.up === 'y'
      ? [c[0] + h * Math.cos(a), c[1] + v, c[2] - h * Math.sin(a)]
      : [c[0] + h * Math.cos(a), c[1] + h * Math.sin(a), c[2] + v];
    path.push({ eye, target: c, up, distance, radius });
  }
  return path;
}

/** 20 points on a 5 x 4 grid over the middle of the canvas (CSS pixels). */
export function pickPoints() {
  const points = [];
  for (let j = 0; j < 4; j++) {
    for (let i = 0; i < 5; i++) points.push([Math.round(WIDTH * (0.2 + 0.15 * i)), Math.round(HEIGHT * (0.2 + 0.2 * j))]);
  }
  return points;
}

// ---- running --------------------------------------------------------------------------

const pixel = new Uint8Array(4);
/** Forces the GPU work of the frame just drawn to finish: reading one pixel waits for it. */
export function finish(gl) {
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
  return pixel[0] + pixel[1] + pixel[2];
}

export function install(name, adapter) {
  let bytes = null;
  let path = null;
  const state = { name, phase: 'created' };
  const container = document.getElementById('viewer');

  const frame = () => {
    adapter.render();
    if (adapter.gl) finish(adapter.gl());
  };
  /** A view at rest: the camera at `view` of a path, the view completed, one frame drawn and finished. */
  const frameAtRest = async (view) => {
    adapter.setCamera(view.eye, view.target, view.up, FOV, view);
    if (adapter.settle) await adapter.settle();
    frame();
  };

  globalThis.__bench = {
    state,
    /** setup_ms: creating the viewer and starting its engine, as its own setup does (not part of load_ms). */
    async setup() {
      const t0 = performance.now();
      await adapter.setup(container);
      state.phase = 'setup';
      return performance.now() - t0;
    },
    async fetchModel(url) {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      bytes = new Uint8Array(await response.arrayBuffer());
      return bytes.byteLength;
    },
    /**
     * load_ms: bytes handed over -> first frame with the whole model, forced to finish;
     * ready_ms: bytes handed over -> the model in the scene, ready to draw (load_ms less the
     * first frame's own drawing, which on software GL is tens of ms to seconds).
     */
    async load(orbitSteps = ORBIT_STEPS) {
      const copy = bytes; // the viewer's own: a page does not keep a file after handing it over
      bytes = null; // nor is the page's heap measured with it
      state.phase = 'loading';
      const t0 = performance.now();
      const info = (await adapter.load(copy)) ?? {};
      const ready_ms = performance.now() - t0;
      if (adapter.gl) {
        path = cameraPath(adapter.bounds(), orbitSteps);
        await frameAtRest(path[0]);
      }
      const load_ms = performance.now() - t0;
      if (adapter.loaded) await adapter.loaded();
      state.phase = 'loaded';
      // One more frame of the same view, counted at the WebGL API.
      let draw_calls = null;
      let triangles = info.triangles ?? null;
      if (adapter.gl) {
        counter.calls = 0;
        counter.triangles = 0;
        counter.on = true;
        frame();
        counter.on = false;
        draw_calls = counter.calls;
        triangles = Math.round(counter.triangles);
      }
      return { load_ms, ready_ms, draw_calls, triangles, ...info.extra };
    },
    /**
     * cold_ms, on a fresh page with the bytes already fetched: creating the viewer -> first
     * frame with the whole model, with no idle time between (what a page that shows a model
     * at once waits for).
     */
    async cold() {
      const copy = bytes.slice();
      state.phase = 'loading';
      const t0 = performance.now();
      await adapter.setup(container, { cold: true });
      await adapter.load(copy);
      if (adapter.gl) await frameAtRest(cameraPath(adapter.bounds(), 1)[0]);
      const cold_ms = performance.now() - t0;
      if (adapter.loaded) await adapter.loaded();
      state.phase = 'loaded';
      return { cold_ms };
    },
    /** Bytes of web-ifc's wasm memory in the page and its workers (which the heap does not count), or null where the bench cannot reach it. */
    async wasm() {
      return adapter.wasmBytes ? adapter.wasmBytes() : null;
    },
    /** Mean time of one orbit frame (camera moved, drawn, forced to finish) over the path. */
    async orbit() {
      if (!adapter.gl) return null;
      const times = [];
      for (let i = 1; i < path.length; i++) {
        const p = path[i];
        const t0 = performance.now();
        adapter.setCamera(p.eye, p.target, p.up, FOV, p);
        if (adapter.frameHook) adapter.frameHook();
        frame();
        times.push(performance.now() - t0);
        // Let the page breathe between frames, as between real animation frames.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      // Back to the start view for picking.
      await frameAtRest(path[0]);
      return { frame_ms: times.reduce((a, b) => a + b, 0) / times.length, frame_max_ms: Math.max(...times) };
    },
    /** Mean time of one pick over the 20 points, and how many hit something. */
    async pick() {
      if (!adapter.pick) return null;
      const points = pickPoints();
      let hits = 0;
      const t0 = performance.now();
      for (const [x, y] of points) {
        const hit = await adapter.pick(x, y);
        if (hit !== null && hit !== undefined) hits++;
      }
      return { pick_ms: (performance.now() - t0) / points.length, pick_hits: hits };
    },
  };
  state.phase = 'ready';
}
