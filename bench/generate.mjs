#!/usr/bin/env node
// Synthetic IFC4 models for `npm run bench`: plain STEP text, written straight to a file.
//
//   node bench/generate.mjs [sizes...] [--check] [--force]
//     sizes: product counts (2000, 20000, 2k, 20k, 200k); default 2k 20k 200k
//     --check: open each file with web-ifc (node build) and count meshes and triangles
//     --force: rewrite files that already exist
//
// A model is a grid of rooms on several storeys. Each room has five products, each with
// its own placement and its own extruded rectangle (IfcExtrudedAreaSolid of an
// IfcRectangleProfileDef) coloured through IfcStyledItem/IfcSurfaceStyle:
//   - a wall along x and a wall along y (IfcWallStandardCase, 0.2 m thick, 2.8 m high)
//   - a floor slab (IfcSlab, 0.2 m)
//   - a window in the x wall (IfcWindow, glass: transparency 0.6)
//   - the room's volume (IfcSpace, transparency 0.8)
// Storeys aggregate their spaces and contain the other elements; walls, slabs and
// windows share one property set per type. No openings: booleans would make web-ifc's
// CSG dominate every viewer's time alike, and the point is the viewers' own costs.
//
// Files go to bench/models/synthetic-<size>.ifc (gitignored), cached: the same size
// gives byte-identical output (GlobalIds are derived from a counter).

import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const MODELS_DIR = join(here, 'models');

/** '20k' -> 20000 */
export function parseSize(text) {
  const m = /^(\d+(?:\.\d+)?)(k|m)?$/i.exec(String(text).trim());
  if (!m) throw new Error(`Not a size: ${text} (use e.g. 2000, 20k, 200k)`);
  return Math.round(Number(m[1]) * (m[2] ? (m[2].toLowerCase() === 'k' ? 1e3 : 1e6) : 1));
}

export function sizeLabel(n) {
  return n % 1e6 === 0 ? `${n / 1e6}m` : n % 1e3 === 0 ? `${n / 1e3}k` : String(n);
}

export function syntheticPath(n) {
  return join(MODELS_DIR, `synthetic-${sizeLabel(n)}.ifc`);
}

const GUID_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$';
function guid(n) {
  let s = '';
  for (let i = 0; i < 21; i++) {
    s = GUID_CHARS[n % 64] + s;
    n = Math.floor(n / 64);
  }
  return '1' + s;
}

/** A STEP real: always with a decimal point, short. */
function r(x) {
  const s = String(Math.round(x * 1e6) / 1e6);
  return /[.eE]/.test(s) ? s : `${s}.`;
}

/** The layout for `products` products: storeys x (nx * ny) rooms of five products. */
export function layout(products) {
  const rooms = Math.ceil(products / 5);
  const storeys = Math.max(2, Math.round(Math.sqrt(rooms) / 4));
  const perStorey = Math.ceil(rooms / storeys);
  const nx = Math.ceil(Math.sqrt(perStorey));
  const ny = Math.ceil(perStorey / nx);
  return { rooms, storeys, nx, ny };
}

export async function generate(products, file) {
  mkdirSync(dirname(file), { recursive: true });
  const out = createWriteStream(file + '.part');
  let buffer = '';
  const write = async (text) => {
    buffer += text;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await new Promise((resolve) => out.once('drain', resolve));
      buffer = '';
    }
  };
  let next = 1;
  let guids = 1;
  const line = async (entity) => {
    const id = next++;
    await write(`#${id}=${entity};\n`);
    return id;
  };

  const { storeys, nx, ny } = layout(products);
  const CELL_X = 6, CELL_Y = 5, STOREY_H = 3, WALL_T = 0.2, SLAB_T = 0.2;

  await write(
    'ISO-10303-21;\nHEADER;\n' +
      "FILE_DESCRIPTION(('ViewDefinition [ReferenceView]'),'2;1');\n" +
      `FILE_NAME('synthetic-${sizeLabel(products)}.ifc','2025-01-01T00:00:00',('bench'),('bim-viewers'),'bench/generate.mjs','bench/generate.mjs','');\n` +
      "FILE_SCHEMA(('IFC4'));\nENDSEC;\nDATA;\n",
  );
  // Units, contexts, shared directions and placements.
  const unitLength = await line("IFCSIUNIT(*,.LENGTHUNIT.,$,.METRE.)");
  const unitArea = await line("IFCSIUNIT(*,.AREAUNIT.,$,.SQUARE_METRE.)");
  const unitVolume = await line("IFCSIUNIT(*,.VOLUMEUNIT.,$,.CUBIC_METRE.)");
  const unitAngle = await line("IFCSIUNIT(*,.PLANEANGLEUNIT.,$,.RADIAN.)");
  const units = await line(`IFCUNITASSIGNMENT((#${unitLength},#${unitArea},#${unitVolume},#${unitAngle}))`);
  const origin = await line('IFCCARTESIANPOINT((0.,0.,0.))');
  const dirZ = await line('IFCDIRECTION((0.,0.,1.))');
  const dirX = await line('IFCDIRECTION((1.,0.,0.))');
  const dirY = await line('IFCDIRECTION((0.,1.,0.))');
  const world = await line(`IFCAXIS2PLACEMENT3D(#${origin},#${dirZ},#${dirX})`);
  const context = await line(`IFCGEOMETRICREPRESENTATIONCONTEXT($,'Model',3,1.E-05,#${world},$)`);
  const body = await line(`IFCGEOMETRICREPRESENTATIONSUBCONTEXT('Body','Model',*,*,*,*,#${context},$,.MODEL_VIEW.,$)`);
  const origin2d = await line('IFCCARTESIANPOINT((0.,0.))');
  const place2d = await line(`IFCAXIS2PLACEMENT2D(#${origin2d},$)`);
  const project = await line(`IFCPROJECT('${guid(guids++)}',$,'Synthetic ${sizeLabel(products)}',$,$,$,$,(#${context}),#${units})`);

  // Styles.
  const style = async (name, [red, green, blue], transparency) => {
    const colour = await line(`IFCCOLOURRGB($,${r(red)},${r(green)},${r(blue)})`);
    const rendering = await line(`IFCSURFACESTYLERENDERING(#${colour},${r(transparency)},$,$,$,$,$,$,.NOTDEFINED.)`);
    return line(`IFCSURFACESTYLE('${name}',.BOTH.,(#${rendering}))`);
  };
  const wallStyle = await style('Wall', [0.85, 0.84, 0.8], 0);
  const slabStyle = await style('Slab', [0.6, 0.6, 0.62], 0);
  const glassStyle = await style('Glass', [0.55, 0.75, 0.9], 0.6);
  const spaceStyle = await style('Space', [0.4, 0.6, 0.9], 0.8);

  // Spatial structure.
  const sitePlace = await line(`IFCLOCALPLACEMENT($,#${world})`);
  const site = await line(`IFCSITE('${guid(guids++)}',$,'Site',$,$,#${sitePlace},$,$,.ELEMENT.,$,$,$,$,$)`);
  const buildingPlace = await line(`IFCLOCALPLACEMENT(#${sitePlace},#${world})`);
  const building = await line(`IFCBUILDING('${guid(guids++)}',$,'Building',$,$,#${buildingPlace},$,$,.ELEMENT.,$,$,$)`);
  await line(`IFCRELAGGREGATES('${guid(guids++)}',$,$,$,#${project},(#${site}))`);
  await line(`IFCRELAGGREGATES('${guid(guids++)}',$,$,$,#${site},(#${building}))`);

  /** One product's geometry: a placement in the storey and an extruded rectangle. */
  const shape = async (storeyPlace, [x, y, z], alongY, xdim, ydim, depth, styleId) => {
    const point = await line(`IFCCARTESIANPOINT((${r(x)},${r(y)},${r(z)}))`);
    const axis = await line(alongY ? `IFCAXIS2PLACEMENT3D(#${point},#${dirZ},#${dirY})` : `IFCAXIS2PLACEMENT3D(#${point},$,$)`);
    const placement = await line(`IFCLOCALPLACEMENT(#${storeyPlace},#${axis})`);
    const profile = await line(`IFCRECTANGLEPROFILEDEF(.AREA.,$,#${place2d},${r(xdim)},${r(ydim)})`);
    const solid = await line(`IFCEXTRUDEDAREASOLID(#${profile},#${world},#${dirZ},${r(depth)})`);
    await line(`IFCSTYLEDITEM(#${solid},(#${styleId}),$)`);
    const rep = await line(`IFCSHAPEREPRESENTATION(#${body},'Body','SweptSolid',(#${solid}))`);
    const definition = await line(`IFCPRODUCTDEFINITIONSHAPE($,$,(#${rep}))`);
    return { placement, definition };
  };

  const storeyIds = [];
  const byType = { walls: [], slabs: [], windows: [] };
  let count = 0;
  for (let s = 0; s < storeys && count < products; s++) {
    const elevation = s * STOREY_H;
    const storeyPoint = await line(`IFCCARTESIANPOINT((0.,0.,${r(elevation)}))`);
    const storeyAxis = await line(`IFCAXIS2PLACEMENT3D(#${storeyPoint},$,$)`);
    const storeyPlace = await line(`IFCLOCALPLACEMENT(#${buildingPlace},#${storeyAxis})`);
    const storey = await line(`IFCBUILDINGSTOREY('${guid(guids++)}',$,'Level ${s + 1}',$,$,#${storeyPlace},$,$,.ELEMENT.,${r(elevation)})`);
    storeyIds.push(storey);
    const elements = [];
    const spaces = [];
    for (let j = 0; j < ny && count < products; j++) {
      for (let i = 0; i < nx && count < products; i++) {
        const x0 = i * CELL_X, y0 = j * CELL_Y;
        const room = `${s + 1}.${j + 1}.${i + 1}`;
        const wallH = STOREY_H - SLAB_T;
        // Wall along x at the room's south side, wall along y at its west side.
        let g = await shape(storeyPlace, [x0 + CELL_X / 2, y0, SLAB_T], false, CELL_X, WALL_T, wallH, wallStyle);
        let id = await line(`IFCWALLSTANDARDCASE('${guid(guids++)}',$,'Wall ${room} S',$,$,#${g.placement},#${g.definition},$,.STANDARD.)`);
        elements.push(id); byType.walls.push(id); count++;
        if (count >= products) break;
        g = await shape(storeyPlace, [x0, y0 + CELL_Y / 2, SLAB_T], true, CELL_Y, WALL_T, wallH, wallStyle);
        id = await line(`IFCWALLSTANDARDCASE('${guid(guids++)}',$,'Wall ${room} W',$,$,#${g.placement},#${g.definition},$,.STANDARD.)`);
        elements.push(id); byType.walls.push(id); count++;
        if (count >= products) break;
        g = await shape(storeyPlace, [x0 + CELL_X / 2, y0 + CELL_Y / 2, 0], false, CELL_X, CELL_Y, SLAB_T, slabStyle);
        id = await line(`IFCSLAB('${guid(guids++)}',$,'Slab ${room}',$,$,#${g.placement},#${g.definition},$,.FLOOR.)`);
        elements.push(id); byType.slabs.push(id); count++;
        if (count >= products) break;
        g = await shape(storeyPlace, [x0 + CELL_X / 2, y0, SLAB_T + 0.9], false, 1.6, 0.06, 1.3, glassStyle);
        id = await line(`IFCWINDOW('${guid(guids++)}',$,'Window ${room}',$,$,#${g.placement},#${g.definition},$,1.3,1.6,.WINDOW.,.SINGLE_PANEL.,$)`);
        elements.push(id); byType.windows.push(id); count++;
        if (count >= products) break;
        g = await shape(storeyPlace, [x0 + CELL_X / 2, y0 + CELL_Y / 2, SLAB_T], false, CELL_X - WALL_T, CELL_Y - WALL_T, wallH, spaceStyle);
        id = await line(`IFCSPACE('${guid(guids++)}',$,'${room}',$,$,#${g.placement},#${g.definition},'Room ${room}',.ELEMENT.,.INTERNAL.,$)`);
        spaces.push(id); count++;
      }
    }
    if (elements.length) await line(`IFCRELCONTAINEDINSPATIALSTRUCTURE('${guid(guids++)}',$,$,$,(${elements.map((e) => '#' + e).join(',')}),#${storey})`);
    if (spaces.length) await line(`IFCRELAGGREGATES('${guid(guids++)}',$,$,$,#${storey},(${spaces.map((e) => '#' + e).join(',')}))`);
  }
  await line(`IFCRELAGGREGATES('${guid(guids++)}',$,$,$,#${building},(${storeyIds.map((e) => '#' + e).join(',')}))`);
  // One property set per element type, shared by all elements of that type.
  const psets = [
    ['Pset_WallCommon', byType.walls, "IFCPROPERTYSINGLEVALUE('IsExternal',$,IFCBOOLEAN(.F.),$)", "IFCPROPERTYSINGLEVALUE('LoadBearing',$,IFCBOOLEAN(.T.),$)"],
    ['Pset_SlabCommon', byType.slabs, "IFCPROPERTYSINGLEVALUE('IsExternal',$,IFCBOOLEAN(.F.),$)", "IFCPROPERTYSINGLEVALUE('LoadBearing',$,IFCBOOLEAN(.T.),$)"],
    ['Pset_WindowCommon', byType.windows, "IFCPROPERTYSINGLEVALUE('IsExternal',$,IFCBOOLEAN(.T.),$)", "IFCPROPERTYSINGLEVALUE('Reference',$,IFCIDENTIFIER('W1'),$)"],
  ];
  for (const [name, ids, ...props] of psets) {
    if (ids.length === 0) continue;
    const propIds = [];
    for (const p of props) propIds.push(await line(p));
    const pset = await line(`IFCPROPERTYSET('${guid(guids++)}',$,'${name}',$,(${propIds.map((e) => '#' + e).join(',')}))`);
    await line(`IFCRELDEFINESBYPROPERTIES('${guid(guids++)}',$,$,$,(${ids.map((e) => '#' + e).join(',')}),#${pset})`);
  }
  await write('ENDSEC;\nEND-ISO-10303-21;\n');
  out.write(buffer);
  await new Promise((resolve, reject) => out.end((e) => (e ? reject(e) : resolve())));
  const { renameSync } = await import('node:fs');
  renameSync(file + '.part', file);
  return { file, products: count, storeys, nx, ny, lines: next - 1, bytes: statSync(file).size };
}

/** Writes the model unless it is cached; returns its path. */
export async function ensureSynthetic(products, { force = false, log = console.log } = {}) {
  const file = syntheticPath(products);
  if (!force && existsSync(file)) return file;
  const t = performance.now();
  const info = await generate(products, file);
  log(`generated ${file}: ${info.products} products, ${info.storeys} storeys of ${info.nx}x${info.ny} rooms, ${(info.bytes / 1e6).toFixed(1)} MB in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return file;
}

/** Opens a file with web-ifc's node build and counts what a viewer would draw. */
export async function check(file) {
  const { IfcAPI, IFCSPACE, LogLevel } = await import('web-ifc');
  const api = new IfcAPI();
  const wasmDir = join(here, '..', 'node_modules', 'web-ifc') + '/';
  await api.Init((path) => wasmDir + path.split('/').pop(), true);
  api.SetLogLevel(LogLevel.LOG_LEVEL_OFF);
  const t0 = performance.now();
  const model = api.OpenModel(new Uint8Array(readFileSync(file)), { COORDINATE_TO_ORIGIN: false });
  const t1 = performance.now();
  let meshes = 0, pieces = 0, empty = 0, triangles = 0;
  const onMesh = (mesh) => {
    meshes++;
    for (let i = 0; i < mesh.geometries.size(); i++) {
      const placed = mesh.geometries.get(i);
      const geometry = api.GetGeometry(model, placed.geometryExpressID);
      const n = geometry.GetIndexDataSize();
      if (n === 0) empty++;
      else pieces++;
      triangles += n / 3;
      geometry.delete();
    }
  };
  api.StreamAllMeshes(model, onMesh);
  const nonSpace = meshes;
  api.StreamAllMeshesWithTypes(model, [IFCSPACE], onMesh);
  const t2 = performance.now();
  api.CloseModel(model);
  return { meshes, spaces: meshes - nonSpace, pieces, empty, triangles, open_ms: Math.round(t1 - t0), stream_ms: Math.round(t2 - t1) };
}

async function main() {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const doCheck = args.includes('--check');
  const sizes = args.filter((a) => !a.startsWith('--')).map(parseSize);
  for (const n of sizes.length ? sizes : [2000, 20000, 200000]) {
    const file = await ensureSynthetic(n, { force });
    if (doCheck) console.log(`${file}:`, await check(file));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
