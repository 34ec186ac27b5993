import { closeSync, openSync } from 'node:fs';
import { packRecords, outputRecordSize, type Present } from './records.js';
import { writeAll } from './distribute.js';

/** Where a node's records are in the octree section. */
export interface WrittenNode {
  numPoints: number;
  byteOffset: number;
  byteSize: number;
}

/**
 * Appends nodes' point records (the file's layout) to the octree section's scratch file,
 * through a buffer, and remembers where each went.
 */
export class NodeWriter {
  readonly nodes = new Map<string, WrittenNode>();
  readonly bytesPerPoint: number;
  size = 0;
  private fd: number | null;
  private buffer = new Uint8Array(8 << 20);
  private used = 0;

  constructor(
    readonly path: string,
    private readonly present: Present,
  ) {
    this.bytesPerPoint = outputRecordSize(present);
    this.fd = openSync(path, 'w');
  }

  /** Writes the records `order[from..to)` of `records` (scratch layout; order null: as they are). */
  write(name: string, records: Uint8Array, order: Uint32Array | null, from: number, to: number): WrittenNode {
    const bytes = (to - from) * this.bytesPerPoint;
    const node = { numPoints: to - from, byteOffset: this.size + this.used, byteSize: bytes };
    this.nodes.set(name, node);
    if (this.used + bytes > this.buffer.length) this.flush();
    if (bytes > this.buffer.length) this.buffer = new Uint8Array(bytes);
    this.used = packRecords(records, order, from, to, this.present, this.buffer, this.used);
    return node;
  }

  private flush(): void {
    writeAll(this.fd!, this.buffer.subarray(0, this.used), this.size);
    this.size += this.used;
    this.used = 0;
  }

  /** Flushes and closes: `size` is then the section's size. */
  finish(): void {
    this.flush();
    this.close();
  }

  /** Closes the file (after a failure too). */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
