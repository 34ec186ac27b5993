import { readBlocks, type Region } from './distribute.js';
import { indexChunk, type ChunkRoot } from './index-chunk.js';
import type { NodeWriter, WrittenNode } from './node-writer.js';
import { scaleColors } from './records.js';
import type { Splitter } from './subsample.js';

/** One chunk to index: where its points are (runs in memory, or the scratch file), and its node. */
export interface ChunkJob {
  pointsPath: string;
  /** The distributor's runs (in memory, or null: in the file). */
  runs: (SharedArrayBuffer | null)[];
  /** Run, byte offset and record count of each block, flattened. */
  blocks: number[];
  region: Region;
  maxNodePoints: number;
  /** 257 when the cloud's colours are 8-bit, else 1. */
  rgbScale: number;
  /** The output file's end (a BigInt64Array's one value): a chunk takes its room there, atomically. */
  end: SharedArrayBuffer;
}

/** Takes `bytes` at the end of the output file: where they go. */
export function allocate(end: SharedArrayBuffer, bytes: number): number {
  return Number(Atomics.add(new BigInt64Array(end), 0, BigInt(bytes)));
}

export interface ChunkResult {
  /** The chunk's nodes but its root, as written (at their positions in the output file). */
  nodes: [string, WrittenNode][];
  root: ChunkRoot;
}

/** Reads a chunk's points, indexes them and writes its nodes (in this thread or a worker). */
export function runChunkJob(job: ChunkJob, writer: NodeWriter, splitter: Splitter): ChunkResult {
  const { records, count } = readBlocks(job.pointsPath, job.runs, job.blocks);
  if (job.rgbScale !== 1) scaleColors(records, count);
  const nodes: [string, WrittenNode][] = [];
  // The nodes below the root, one after another in the room taken for them.
  const onRoot = (rootCount: number) => writer.seek(allocate(job.end, (count - rootCount) * writer.bytesPerPoint));
  const root = indexChunk(records, count, job.region, job.maxNodePoints, splitter, (name, source, order, from, to) => {
    nodes.push([name, writer.write(source, order, from, to)]);
  }, onRoot);
  writer.flush();
  return { nodes, root };
}
