import type { GeometryChunk, OpenResult } from '../ifc/protocol.js';
import type { Product, ProductOptions, SpatialNode, StreamingProgress } from '../types.js';

/** IFC coordinates (metres, z up) subtracted from every position the viewer holds. */
export type Origin = [number, number, number];

/** Reports a load's progress over its whole course (0..1). */
export type LoadProgress = (value: number, phase: StreamingProgress['phase']) => void;

/**
 * One model loading from one format, as the viewer drives it: `open` reads what comes
 * before the geometry (how many units of it, the grids, the type names), `stream` sends
 * the geometry unit by unit (the elements first, then the spaces the viewer shows
 * later), and the product questions are answered from the same source. IFC
 * (ifc-loader.ts) is parsed by web-ifc in workers; a scene (scene-loader.ts) is what the
 * platform parsed once at upload. Object ids in and out carry the model's objectIdBase.
 */
export interface ModelLoader {
  /** How long after the geometry starts the first frame of a streaming model may come (FramePacer). */
  readonly firstFrameMs?: number;
  open(): Promise<OpenResult>;
  /**
   * Streams units [first, end) of the model's geometry, positions less `origin` (when
   * null, the loader chooses one); resolves to the origin used once every chunk is in.
   * `more`: further chunks are already here (a frame now would only hold them up).
   */
  stream(units: [number, number], origin: Origin | null, onChunk: (chunk: GeometryChunk, more?: boolean) => void): Promise<Origin>;
  /** Streams all of the geometry again (the WebGL context was lost with it). */
  restream(origin: Origin, onChunk: (chunk: GeometryChunk) => void): Promise<void>;
  products(expressIds: number[] | null, options: ProductOptions): Promise<(Product | null)[]>;
  expressIds(globalIds: string[]): Promise<(number | null)[]>;
  spatial(): Promise<SpatialNode | null>;
  /** Lets go of what the load holds (a worker's copy of the model, a download). */
  close(): Promise<void>;
}
