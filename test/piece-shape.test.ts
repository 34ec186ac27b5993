import { assert, assertEqual } from './support/assert';
import { PieceShape } from '../src/core/ifc/piece-shape';
import { RANGE_STRIDE } from '../src/core/ifc/protocol';
import { pieceVolume, streamModel } from './support/ifc';
import { MODELS } from './support/viewer';
import { truthOf, productsOf } from './support/samples';

// PieceShape decides which placed geometries are drawn with their back faces culled: only
// closed solids, wound outward. A wrong "closed" leaves holes in the picture.

/** A unit cube as web-ifc lays one out: 4 vertices per face (position + normal), 2 triangles per face, counter-clockwise seen from outside. */
function cube(faces = 6): { vertices: Float32Array; triangles: Uint32Array } {
  const sides: [number[], number[], number[]][] = [
    [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
    [[-1, 0, 0], [0, 0, 1], [0, 1, 0]],
    [[0, 1, 0], [0, 0, 1], [1, 0, 0]],
    [[0, -1, 0], [1, 0, 0], [0, 0, 1]],
    [[0, 0, 1], [1, 0, 0], [0, 1, 0]],
    [[0, 0, -1], [0, 1, 0], [1, 0, 0]],
  ];
  const vertices: number[] = [];
  const triangles: number[] = [];
  for (const [n, u, v] of sides.slice(0, faces)) {
    const base = vertices.length / 6;
    // The face centre is 0.5 + n/2; corners at +-u/2 +-v/2 around it, u x v = n.
    for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
      for (let k = 0; k < 3; k++) vertices.push(0.5 + n[k] / 2 + (a * u[k]) / 2 + (b * v[k]) / 2);
      vertices.push(...n);
    }
    triangles.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  return { vertices: new Float32Array(vertices), triangles: new Uint32Array(triangles) };
}

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const MIRROR_X = [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

function reversed(triangles: Uint32Array): Uint32Array {
  const out = triangles.slice();
  for (let t = 0; t < out.length; t += 3) [out[t + 1], out[t + 2]] = [out[t + 2], out[t + 1]];
  return out;
}

describe('PieceShape', () => {
  const shape = new PieceShape();

  it('finds the 8 corners among a cube\'s 24 vertices, every vertex mapped to its corner', () => {
    const { vertices, triangles } = cube();
    shape.read(vertices, triangles, IDENTITY);
    assertEqual(shape.distinct, 8);
    for (let i = 0; i < 24; i++) {
      const f = shape.firsts[shape.local[i]];
      for (let k = 0; k < 3; k++) assertEqual(vertices[f * 6 + k], vertices[i * 6 + k], `vertex ${i} and its corner`);
    }
  });

  it('a cube wound outward is closed, not inward; wound inward it is turned; a mirroring placement turns it too', () => {
    const { vertices, triangles } = cube();
    shape.read(vertices, triangles, IDENTITY);
    assert(shape.closed && !shape.inward, 'outward cube');
    shape.read(vertices, reversed(triangles), IDENTITY);
    assert(shape.closed && shape.inward, 'inward cube');
    shape.read(vertices, triangles, MIRROR_X);
    assert(shape.closed && shape.inward, 'outward cube, mirrored');
  });

  it('open or inconsistently wound surfaces are not closed', () => {
    const open = cube(5);
    assert(!shape.read(open.vertices, open.triangles, IDENTITY).closed, 'a box without a lid');
    const { vertices, triangles } = cube();
    const mixed = triangles.slice();
    [mixed[1], mixed[2]] = [mixed[2], mixed[1]]; // one triangle the other way round
    assert(!shape.read(vertices, mixed, IDENTITY).closed, 'one triangle turned');
    const twice = new Uint32Array([...triangles, ...triangles.subarray(0, 6)]);
    assert(!shape.read(vertices, twice, IDENTITY).closed, 'a face twice');
  });

  it('keeps what it read of a geometry placed a second time, and answers the placements after from it', () => {
    const reader = new PieceShape();
    const box = cube();
    const open = cube(5);
    reader.read(box.vertices, box.triangles, IDENTITY, 7);
    reader.read(box.vertices, box.triangles, IDENTITY, 7);
    const local = Array.from(reader.local.subarray(0, 24));
    const firsts = Array.from(reader.firsts.subarray(0, 8));
    // Another geometry read in between (24 vertices, all apart) fills the reader's own arrays, not the kept ones.
    const apart = new Float32Array(24 * 6).map((_, i) => (i % 6 < 3 ? i : 0));
    reader.read(apart, box.triangles, IDENTITY);
    assertEqual(reader.distinct, 24);
    // Geometry 7 again, mirrored: its answers come from what was kept (the vertices given are not read again).
    reader.read(open.vertices, open.triangles, MIRROR_X, 7);
    assertEqual(reader.distinct, 8);
    assert(reader.closed && reader.inward, 'the cube, turned by the mirroring placement');
    assertEqual(Array.from(reader.local.subarray(0, 24)).join(), local.join());
    assertEqual(Array.from(reader.firsts.subarray(0, 8)).join(), firsts.join());
    // A geometry read once is read again in full.
    reader.read(box.vertices, box.triangles, IDENTITY, 9);
    reader.read(open.vertices, open.triangles, IDENTITY, 9);
    assert(!reader.closed, 'geometry 9 read anew');
  });

  it('sorts a model: its closed chunks hold only outward-wound solids, and plain extruded solids are closed', async () => {
    const truth = await truthOf(MODELS.house);
    const typeOf = new Map(truth.products.map((p) => [p.id, p.type]));
    const pieces = new Map<number, { closed: number; open: number }>();
    let closedPieces = 0;
    let openPieces = 0;
    await streamModel(await (await fetch(MODELS.house)).arrayBuffer(), (chunk) => {
      for (let r = 0; r < chunk.ranges.length; r += RANGE_STRIDE) {
        const count = pieces.get(chunk.expressIds[chunk.ranges[r]]) ?? { closed: 0, open: 0 };
        pieces.set(chunk.expressIds[chunk.ranges[r]], count);
        if (!chunk.closed) {
          count.open++;
          openPieces++;
          continue;
        }
        count.closed++;
        closedPieces++;
        const volume = pieceVolume(chunk, r);
        assert(volume > 0, `piece ${r / RANGE_STRIDE} of a closed chunk (#${chunk.expressIds[chunk.ranges[r]]}, ${typeOf.get(chunk.expressIds[chunk.ranges[r]])}) encloses a positive volume (${volume})`);
      }
    });
    // Columns, beams, tables and door leaves are extruded profiles (the tables and doors mapped items): closed solids.
    const solids = productsOf(truth, 'IfcColumn', 'IfcBeam', 'IfcFurniture', 'IfcDoor');
    for (const product of solids) {
      const count = pieces.get(product.id);
      assert(count && count.closed > 0 && count.open === 0, `${product.type} ${product.name} is drawn as closed solids: ${JSON.stringify(count)}`);
    }
    // Glass and spaces are see-through: drawn from both sides.
    assert(closedPieces >= solids.length && openPieces > 0, `the house has both (${closedPieces} closed, ${openPieces} not)`);
  });
});
