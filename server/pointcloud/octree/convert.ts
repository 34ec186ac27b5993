import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Bounds, PointAttribute, PointCloudMetadata } from '../../../src/core/formats/pointcloud.js';
import { PointCloudError, type PointReader } from '../point-reader.js';
import { checksums } from '../../../src/core/formats/checksum.js';
import { finishContainer, hierarchyOf } from './assemble.js';
import { mergeCells } from './chunks.js';
import { cubeBounds, octreeCube, type OctreeCube } from './cube.js';
import { Distributor, RunBudget } from './distribute.js';
import { allocate, runChunkJob, type ChunkJob, type ChunkResult } from './chunk-job.js';
import type { ChunkRoot } from './index-chunk.js';
import { IndexPool } from './index-pool.js';
import { NodeWriter, type WrittenNode } from './node-writer.js';
import { distributeInput, OutsideCube, scanBounds, type InputStats } from './read-input.js';
import { outputAttributes, type Present } from './records.js';
import { SAMPLE_BITS, Splitter } from './subsample.js';
import { buildUpperLevels } from './upper-levels.js';

export interface ConvertOptions {
  /** The cloud's name in the metadata (default: the source's name without extension). */
  name?: string;
  /** The file converted (its name goes in the metadata). */
  sourceName?: string;
  /** Where scratch files go (default: the system's temporary folder); removed at the end. */
  scratchDir?: string;
  /** Points per leaf at most. */
  maxNodePoints?: number;
  /** Points indexed in memory at once at most, per thread (the memory bound: about 35 bytes a point; default an eighth of the cloud, 250,000 to 2 million). */
  maxChunkPoints?: number;
  /** Bytes of sorted points kept in memory rather than in scratch files (24 bytes a point). */
  memoryRuns?: number;
  /** Bytes left at the file's start for head and hierarchy (default: enough for the cloud; less makes the nodes move after them, as tests check). */
  headRoom?: number;
  /** Threads that index chunks: this one and threads - 1 workers (default 2, or 1 on one core; by default clouds under a million points are indexed in this thread alone). */
  threads?: number;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export interface ConvertSummary {
  points: number;
  nodes: number;
  /** The deepest level (the root is 0). */
  depth: number;
  /** The points' own bounds. */
  bounds: Bounds;
  /** Points with a non-finite coordinate, left out (the metadata's description says so). */
  invalid: number;
  seconds: number;
  pointsPerSecond: number;
  /** Seconds spent reading and sorting the points, indexing them, and writing the file. */
  phases: { reading: number; indexing: number; writing: number };
}

/** Chosen by measurement (docs/POINTCLOUD-FORMAT.md). */
export const DEFAULT_MAX_NODE_POINTS = 50_000;
export const DEFAULT_MAX_CHUNK_POINTS = 2_000_000;
const MIN_CHUNK_POINTS = 250_000;
/** 512 MiB: about 22 million points sorted without touching the disk. */
export const DEFAULT_MEMORY_RUNS = 512 << 20;
/** Fewer points are indexed in this thread: starting workers would cost more than it saves. */
const MIN_THREADED_POINTS = 1_000_000;

/**
 * Converts a scan into the point cloud format (docs/POINTCLOUD-FORMAT.md): bounds, one pass
 * that sorts the points into grid cells (in memory up to a budget, then on disk), chunks of
 * cells each indexed in memory (in this thread and a worker), the levels above the chunks,
 * then the file's head. The reader stays open (the caller closes it). On failure or
 * abort no output is left, and the scratch files are removed either way.
 */
export async function convertPointCloud(reader: PointReader, outPath: string, options: ConvertOptions = {}): Promise<ConvertSummary> {
  const started = performance.now();
  const maxNodePoints = Math.max(1, Math.floor(options.maxNodePoints ?? DEFAULT_MAX_NODE_POINTS) || DEFAULT_MAX_NODE_POINTS);
  // Chunks of an eighth of the cloud, so two threads share the work evenly, within bounds.
  const chunkPoints = options.maxChunkPoints ?? Math.min(DEFAULT_MAX_CHUNK_POINTS, Math.max(MIN_CHUNK_POINTS, Math.ceil(reader.info.pointCount / 8)));
  const maxChunkPoints = Math.max(maxNodePoints, Math.floor(chunkPoints) || DEFAULT_MAX_CHUNK_POINTS);
  const { signal } = options;
  const info = reader.info;
  const expected = Math.max(1, info.pointCount);
  const progress = (fraction: number) => options.onProgress?.(Math.min(1, Math.max(0, fraction)));
  const present: Present = { intensity: info.hasIntensity, classification: info.hasClassification, rgb: info.hasColor };
  const scratch = mkdtempSync(path.join(options.scratchDir ?? tmpdir(), 'bimcloud-'));
  const open: { close(): void }[] = [];
  let outputStarted = false;
  // Index workers (threads - 1: this thread indexes too) start now, so they are ready
  // (TypeScript loaded) when the points are sorted.
  const threads = Math.max(1, Math.floor(options.threads ?? Math.min(2, availableParallelism())));
  const pool = threads > 1 && (options.threads !== undefined || info.pointCount >= MIN_THREADED_POINTS) ? new IndexPool(threads - 1, outPath, present) : null;
  try {
    signal?.throwIfAborted();
    // 1. The cube, and 2-3. one pass that sorts the points into the grid's cells.
    let stated = validBounds(info.bounds);
    const readingShare = stated ? 0.5 : 0.4;
    let bounds = stated ?? (await scanBounds(reader, { signal, onPoints: (n) => progress((0.1 * n) / expected) }));
    if (!bounds) throw new PointCloudError('empty', 'The scan holds no points');
    let cube = octreeCube(bounds, info.scale);
    const budget = new RunBudget(Math.max(0, options.memoryRuns ?? DEFAULT_MEMORY_RUNS));
    const root = () => new Distributor(path.join(scratch, `points-${open.length}`), { name: 'r', origin: [0, 0, 0], bits: cube.bits }, budget);
    let distributor = root();
    open.push(distributor);
    const base = stated ? 0 : 0.1;
    const onPoints = (n: number) => progress(base + (readingShare * n) / expected);
    let stats: InputStats;
    try {
      stats = await distributeInput(reader, cube, distributor, { signal, onPoints });
    } catch (error) {
      if (!(error instanceof OutsideCube && stated)) throw error;
      // The header's bounds were wrong: read the real ones and start again.
      stated = null;
      distributor.runs.length = 0; // its runs in memory go, and their budget comes back
      budget.left = Math.max(0, options.memoryRuns ?? DEFAULT_MEMORY_RUNS);
      bounds = await scanBounds(reader, { signal });
      if (!bounds) throw new PointCloudError('empty', 'The scan holds no points');
      cube = octreeCube(bounds, info.scale);
      distributor = root();
      open.push(distributor);
      stats = await distributeInput(reader, cube, distributor, { signal, onPoints });
    }
    if (stats.points === 0) throw new PointCloudError('empty', 'The scan holds no points');
    const indexedShare = 0.95 - base - readingShare;
    const readDone = base + readingShare;

    // 4. The chunks, each indexed in memory; a cell too large for one is first sorted
    // again, into a finer grid of its own.
    const rgbScale = present.rgb && Math.max(...stats.rgbMax) <= 255 ? 257 : 1;
    const jobs: ChunkJob[] = [];
    const collect = (d: Distributor) => {
      for (const chunk of mergeCells(d.counts, d.gridBits, d.region, maxChunkPoints)) {
        signal?.throwIfAborted();
        if (chunk.count > maxChunkPoints && chunk.region.bits > 0) {
          const finer = new Distributor(path.join(scratch, `points-${open.length}`), chunk.region, budget);
          open.push(finer);
          for (const { records, count } of d.cellBlocks(chunk.cells[0])) finer.addRecords(records, count);
          finer.finish();
          collect(finer);
        } else jobs.push({ pointsPath: d.path, runs: d.runs, blocks: d.blocksOf(chunk.cells), region: chunk.region, maxNodePoints, rgbScale, end: new SharedArrayBuffer(8) });
      }
    };
    collect(distributor);
    const readAt = performance.now();

    // The output file: room for the head and hierarchy, then each chunk's nodes where the
    // chunk took room for them (workers write straight into it), then the levels above.
    const reserve = options.headRoom ?? headReserve(stats.points, maxNodePoints, jobs.length);
    const end = new SharedArrayBuffer(8);
    new BigInt64Array(end)[0] = BigInt(reserve);
    for (const job of jobs) job.end = end;
    outputStarted = true;
    closeSync(openSync(outPath, 'w'));
    const writer = new NodeWriter(outPath, present);
    open.push(writer);
    const splitter = new Splitter();
    const roots: ChunkRoot[] = [];
    const nodes = new Map<string, WrittenNode>();
    let indexed = 0;
    const done = (result: ChunkResult) => {
      roots.push(result.root);
      for (const [name, node] of result.nodes) nodes.set(name, node);
      indexed += result.root.count + result.nodes.reduce((sum, [, node]) => sum + node.numPoints, 0);
      progress(readDone + (indexedShare * indexed) / stats.points);
    };
    // The chunks, largest first: the worker(s) take the next as they finish, this thread
    // takes one whenever it is free (between chunks it lets the workers' replies through).
    const queue = [...jobs].sort((x, y) => jobPoints(y) - jobPoints(x));
    const own = async () => {
      for (let job; (job = queue.shift()); ) {
        signal?.throwIfAborted();
        done(runChunkJob(job, writer, splitter));
        await nextTurn();
      }
    };
    if (pool && jobs.length > 1) {
      const worker = async () => {
        for (let job; (job = queue.shift()); ) {
          const result = await pool.run(job);
          signal?.throwIfAborted();
          done(result);
        }
      };
      try {
        // Two jobs per worker in flight (a worker starts its second without waiting for this thread).
        await Promise.all([...Array.from({ length: 2 * (threads - 1) }, worker), own()]);
        await pool.finish();
      } finally {
        await pool.terminate();
      }
    } else {
      await pool?.terminate();
      await own();
    }

    // The levels above the chunks; then the chunks' roots and those levels, at the end.
    const held = buildUpperLevels(roots, cube.bits, splitter);
    let total = 0;
    for (const node of held.values()) total += node.count;
    writer.seek(allocate(end, total * writer.bytesPerPoint));
    for (const [name, node] of held) nodes.set(name, writer.write(node.records, null, 0, node.count));
    writer.finish();
    signal?.throwIfAborted();
    const indexedAt = performance.now();

    // 5. The file: head and hierarchy into the room left for them.
    const entries = hierarchyOf(nodes);
    const depth = Math.max(...entries.map((e) => e.name.length - 1));
    const metadata = metadataOf(options, info.format, info.projection, cube, stats, present, rgbScale, depth);
    await checksums();
    finishContainer(outPath, metadata, nodes, reserve, path.join(scratch, 'moved'));
    progress(1);
    const seconds = (performance.now() - started) / 1000;
    const phases = { reading: (readAt - started) / 1000, indexing: (indexedAt - readAt) / 1000, writing: (performance.now() - indexedAt) / 1000 };
    return { points: stats.points, nodes: entries.length, depth, bounds: stats.bounds, invalid: stats.invalid, seconds, pointsPerSecond: stats.points / seconds, phases };
  } catch (error) {
    if (outputStarted) rmSync(outPath, { force: true });
    throw error;
  } finally {
    await pool?.terminate();
    for (const file of open) {
      try {
        file.close();
      } catch {
        // already closed
      }
    }
    rmSync(scratch, { recursive: true, force: true });
  }
}

function validBounds(bounds: Bounds | null): Bounds | null {
  if (!bounds) return null;
  const values = [...bounds.min, ...bounds.max];
  if (!values.every(Number.isFinite)) return null;
  return bounds.min.every((v, i) => v <= bounds.max[i]) ? bounds : null;
}

function metadataOf(
  options: ConvertOptions,
  format: string,
  projection: string,
  cube: OctreeCube,
  stats: InputStats,
  present: Present,
  rgbScale: number,
  depth: number,
): PointCloudMetadata {
  const sourceName = options.sourceName ?? '';
  const name = options.name ?? (sourceName.replace(/\.[^.]*$/, '') || 'point cloud');
  const attributes: PointAttribute[] = outputAttributes(present).map((attribute) => {
    const range = {
      position: [stats.bounds.min, stats.bounds.max],
      intensity: [[stats.intensity[0]], [stats.intensity[1]]],
      classification: [[stats.classification[0]], [stats.classification[1]]],
      rgb: [stats.rgbMin.map((v) => v * rgbScale), stats.rgbMax.map((v) => v * rgbScale)],
    }[attribute.name]!;
    return { ...attribute, min: [...range[0]], max: [...range[1]] };
  });
  const invalid = stats.invalid ? ` ${stats.invalid} points with a coordinate that is not a number were left out.` : '';
  return {
    version: '2.0',
    name,
    description: `Converted from ${sourceName || 'a scan'} (${format}): ${stats.points} points, none dropped as duplicates.${invalid}`,
    points: stats.points,
    projection,
    hierarchy: { firstChunkSize: 0, stepSize: depth, depth },
    offset: [...cube.offset],
    scale: [cube.scale, cube.scale, cube.scale],
    spacing: (2 ** cube.bits * cube.scale) / 2 ** Math.min(SAMPLE_BITS, cube.bits),
    boundingBox: cubeBounds(cube),
    encoding: 'DEFAULT',
    attributes,
    container: {
      hierarchy: { offset: 0, size: 0, crc32: 0 },
      octree: { offset: 0, size: 0 },
      tightBoundingBox: { min: [...stats.bounds.min], max: [...stats.bounds.max] },
      source: { name: sourceName, format },
    },
  };
}

/** Points of a chunk job. */
function jobPoints(job: ChunkJob): number {
  let count = 0;
  for (let b = 2; b < job.blocks.length; b += 3) count += job.blocks[b];
  return count;
}

/**
 * Room for the head and hierarchy before the first node: 64 kB for the metadata, and 22
 * bytes for each node the cloud may have (leaves at least an eighth full, the chunks'
 * roots and the levels above). Should they need more, the nodes are moved after them.
 */
function headReserve(points: number, maxNodePoints: number, chunks: number): number {
  const nodes = Math.ceil((8 * points) / maxNodePoints) + 64 * chunks + 256;
  return 65536 + 22 * nodes;
}
