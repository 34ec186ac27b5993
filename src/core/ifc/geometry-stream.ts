import { IFCSPACE, type IfcAPI } from 'web-ifc';
import { forEachGeometry, streamMeshes, type FlatMesh } from './web-ifc-engine.js';
import { GeometryBatcher } from './geometry-batcher.js';
import { PieceShape } from './piece-shape.js';
import type { StreamPlan } from './stream-plan.js';
import type { UnstyledProducts } from './unstyled.js';
import { ifcPoint } from './web-ifc-frame.js';
import type { GeometryChunk } from './protocol.js';

type Origin = [number, number, number];
export type ChunkSink = (chunk: GeometryChunk, spaces: boolean) => void;

/**
 * An open model's geometry, streamed unit by unit of its plan into batched chunks
 * (opaque, closed solids, glass; the spaces in chunks of their own): what the IFC worker
 * sends the page and what the scene converter writes, the same code for both.
 */
export class GeometryStream {
  private batchers: { opaque: GeometryBatcher; solid: GeometryBatcher; glass: GeometryBatcher; origin: Origin; spaces: boolean } | null = null;
  private readonly shape = new PieceShape();

  constructor(
    private readonly ifc: IfcAPI,
    private readonly modelID: number,
    private readonly plan: StreamPlan,
    private readonly unstyled: UnstyledProducts,
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
    for (const unit of units) {
      const [start, end] = plan.range(unit);
      streamMeshes(ifc, modelID, Array.from(plan.ids.subarray(start, end)), (mesh: FlatMesh, index: number) => {
        const type = plan.types[start + index];
        if (type === IFCSPACE && this.batchers && !this.batchers.spaces) {
          // Spaces (last in the plan) get chunks of their own: hidden, those are not drawn at all.
          this.emitAll();
          this.batchers.spaces = true;
        }
        forEachGeometry(ifc, modelID, mesh, (vertices, triangles, { flatTransformation: m, color: c }) => {
          const into = this.batchers ?? this.begin(firstVertex(vertices, m), type === IFCSPACE);
          const piece = shape.read(vertices, triangles, m);
          const rgba = unstyled.unstyled(mesh.expressID, c) ? null : [c.x, c.y, c.z, c.w];
          (c.w < 1 ? into.glass : piece.closed ? into.solid : into.opaque).add(mesh.expressID, type, vertices, triangles, m, rgba, piece);
        });
      });
    }
    return this.origin;
  }

  /** Sends what the chunks hold, and ends the stream (the next `units` starts a new one). */
  end(send: ChunkSink): void {
    this.send = send;
    if (this.batchers) this.emitAll();
    this.batchers = null;
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
