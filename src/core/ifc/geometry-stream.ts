import { IFCSPACE, type IfcAPI } from 'web-ifc';
import { forEachGeometry, streamMeshes, type FlatMesh } from './web-ifc-engine.js';
import { GeometryBatcher } from './geometry-batcher.js';
import { PieceShape } from './piece-shape.js';
import { GeometryCache } from './geometry-cache.js';
import type { StreamPlan } from './stream-plan.js';
import type { UnstyledProducts } from './unstyled.js';
import { ifcPoint } from './web-ifc-frame.js';
import type { GeometryChunk } from './protocol.js';
import type { SceneShape } from '../formats/scene.js';

type Origin = [number, number, number];
/**
 * The smallest geometry (distinct positions) a scene holds once when it is placed again.
 * Below it, gzip packs a written-out copy about as small as a repeat: on the four real
 * sample models a threshold of 256 never makes a file bigger than none (docs/SCENE-FORMAT.md).
 */
const MIN_SHAPE_VERTICES = 256;
export type ChunkSink = (chunk: GeometryChunk, spaces: boolean) => void;
/** A placed geometry of object `owner` (IFC type `type`): vertices (x, y, z, nx, ny, nz) in web-ifc's frame, placed by `m`. */
export type PieceListener = (owner: number, type: number, geometryId: number, vertices: Float32Array, triangles: Uint32Array, m: ArrayLike<number>) => void;

/**
 * An open model's geometry, streamed unit by unit of its plan into batched chunks
 * (opaque, closed solids, glass; the spaces in chunks of their own): what the IFC worker
 * sends the page and what the scene converter writes, the same code for both.
 */
export class GeometryStream {
  private batchers: { opaque: GeometryBatcher; solid: GeometryBatcher; glass: GeometryBatcher; origin: Origin; spaces: boolean } | null = null;
  private shape = new PieceShape();
  /** The geometries placed more than once, read through web-ifc once. */
  private geometries = new GeometryCache();
  /** Per web-ifc geometry placed so far: its size, and its shape number once it was placed twice. */
  private readonly placed = new Map<number, { vertices: number; indices: number; shape?: number }>();
  private shapes = 0;

  /**
   * For writing a scene: with `onShape`, a geometry placed a second time becomes a shape,
   * handed to `onShape` before any chunk that repeats it, and its pieces from then on
   * carry `repeats` (GeometryChunk) so the scene holds it once; `onPiece` sees every
   * placed geometry as it goes by (the plans' meshes, collected in the same pass).
   */
  constructor(
    private readonly ifc: IfcAPI,
    private readonly modelID: number,
    private readonly plan: StreamPlan,
    private readonly unstyled: UnstyledProducts,
    private readonly hooks: { onShape?: (shape: SceneShape) => void; onPiece?: PieceListener } = {},
  ) {}

  /** Takes each full chunk (`spaces` when it holds spaces only): the last call's, which filled it last. */
  private send: ChunkSink = () => {};

  /** The origin of the stream: set by `units` (given, or the first vertex), null before. */
  get origin(): Origin | null {
    return this.batchers?.origin ?? null;
  }

  /**
   * Streams units of the plan; chunks fill up across calls until `end`. Every position
   * has `origin` (IFC coordinates, metres) subtracted; when null, the stream's first
   * vertex rounded to whole metres, or the origin an earlier call set. Answers the
   * origin used (null while nothing had geometry).
   */
  units(units: number[], origin: Origin | null, send: ChunkSink): Origin | null {
    this.send = send;
    if (this.batchers && origin && this.batchers.origin.join() !== origin.join()) throw new Error('A stream cannot change its origin');
    if (!this.batchers && origin) this.begin(origin);
    const { ifc, modelID, plan, unstyled, shape } = this;
    const { onShape, onPiece } = this.hooks;
    for (const unit of units) {
      const [start, end] = plan.range(unit);
      streamMeshes(ifc, modelID, Array.from(plan.ids.subarray(start, end)), (mesh: FlatMesh, index: number) => {
        const type = plan.types[start + index];
        if (type === IFCSPACE && this.batchers && !this.batchers.spaces) {
          // Spaces (last in the plan) get chunks of their own: hidden, those are not drawn at all.
          this.emitAll();
          this.batchers.spaces = true;
        }
        forEachGeometry(ifc, modelID, mesh, (vertices, triangles, { flatTransformation: m, color: c, geometryExpressID }) => {
          const into = this.batchers ?? this.begin(firstVertex(vertices, m), type === IFCSPACE);
          const piece = shape.read(vertices, triangles, m, geometryExpressID);
          const rgba = unstyled.unstyled(mesh.expressID, c) ? null : [c.x, c.y, c.z, c.w];
          const repeatOf = onShape ? this.shapeOf(onShape, geometryExpressID, vertices, triangles, piece) : undefined;
          onPiece?.(mesh.expressID, type, geometryExpressID, vertices, triangles, m);
          (c.w < 1 ? into.glass : piece.closed ? into.solid : into.opaque).add(mesh.expressID, type, vertices, triangles, m, rgba, piece, repeatOf);
        }, this.geometries);
      });
    }
    return this.origin;
  }

  /** Sends what the chunks hold, and ends the stream (the next `units` starts a new one). */
  end(send: ChunkSink): void {
    this.send = send;
    if (this.batchers) this.emitAll();
    this.batchers = null;
    // What was kept of repeated geometries goes with the stream (the worker keeps its model open).
    this.shape = new PieceShape();
    this.geometries = new GeometryCache();
  }

  /**
   * The shape number to repeat a geometry with, or undefined to write it out (the first
   * time, and for small geometries: a copy of those costs gzip little more than the
   * repeat's own 84 bytes, MIN_SHAPE_VERTICES).
   */
  private shapeOf(onShape: (shape: SceneShape) => void, geometry: number, vertices: Float32Array, triangles: Uint32Array, piece: PieceShape): number | undefined {
    if (piece.distinct < MIN_SHAPE_VERTICES) return undefined;
    const seen = this.placed.get(geometry);
    if (!seen || seen.vertices !== piece.distinct || seen.indices !== triangles.length) {
      this.placed.set(geometry, { vertices: piece.distinct, indices: triangles.length });
      return undefined;
    }
    if (seen.shape === undefined) {
      seen.shape = this.shapes++;
      const positions = new Float32Array(piece.distinct * 3);
      for (let j = 0; j < piece.distinct; j++) positions.set(vertices.subarray(piece.firsts[j] * 6, piece.firsts[j] * 6 + 3), j * 3);
      const local = new Uint32Array(triangles.length);
      for (let t = 0; t < triangles.length; t++) local[t] = piece.local[triangles[t]];
      onShape({ id: seen.shape, positions, triangles: local });
    }
    return seen.shape;
  }

  private begin(origin: Origin, spaces = false) {
    const send = (chunk: GeometryChunk) => this.send(chunk, this.batchers!.spaces);
    this.batchers = {
      opaque: new GeometryBatcher(false, false, origin, send),
      solid: new GeometryBatcher(false, true, origin, send),
      glass: new GeometryBatcher(true, false, origin, send),
      origin,
      spaces,
    };
    return this.batchers;
  }

  private emitAll() {
    this.batchers!.opaque.emit();
    this.batchers!.solid.emit();
    this.batchers!.glass.emit();
  }
}

/**
 * A placed geometry's first vertex in IFC coordinates, rounded to whole metres: the
 * origin of a stream that has none, so far-away (georeferenced) coordinates never reach float32.
 */
function firstVertex(v: Float32Array, m: ArrayLike<number>): Origin {
  const p = ifcPoint(v, 0, m, new Float64Array(3));
  return [Math.round(p[0]), Math.round(p[1]), Math.round(p[2])];
}
