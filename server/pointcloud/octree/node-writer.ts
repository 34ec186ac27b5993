import { closeSync, openSync } from 'node:fs';
import { packRecords, outputRecordSize, type Present } from './records.js';
import { writeAll } from './distribute.js';

/** Where a node's records are: `byteOffset` is a position in the output file until the file is assembled. */
export interface WrittenNode {
  numPoints: number;
  byteOffset: number;
  byteSize: number;
}

/**
 * Writes nodes' point records (the file's layout) into the output file, through a buffer:
 * one after another from the position last `seek`ed to (each chunk has its own region of
 * the file, so the workers write side by side). The file is opened at the first write.
 */
export class NodeWriter {
  readonly bytesPerPoint: number;
  /** Where the next node goes. */
  position = 0;
  private fd: number | null = null;
  private buffer = new Uint8Array(8 << 20);
  private used = 0;
  /** Where the buffer's bytes go. */
  private bufferAt = 0;

  constructor(
    readonly path: string,
    private readonly present: Present,
  ) {
    this.bytesPerPoint = outputRecordSize(present);
  }

  /** The next nodes go from `position` on. */
  seek(position: number): void {
    this.flush();
    this.position = this.bufferAt = position;
  }

  /** Writes the records `order[from..to)` of `records` (scratch layout; order null: as they are). */
  write(records: Uint8Array, order: Uint32Array | null, from: number, to: number): WrittenNode {
    const bytes = (to - from) * this.bytesPerPoint;
    const node = { numPoints: to - from, byteOffset: this.position, byteSize: bytes };
    if (this.used + bytes > this.buffer.length) this.flush();
    if (bytes > this.buffer.length) this.buffer = new Uint8Array(bytes);
    this.used = packRecords(records, order, from, to, this.present, this.buffer, this.used);
    this.position += bytes;
    return node;
  }

  flush(): void {
    if (this.used) writeAll((this.fd ??= openSync(this.path, 'r+')), this.buffer.subarray(0, this.used), this.bufferAt);
    this.bufferAt += this.used;
    this.used = 0;
  }

  /** Flushes and closes. */
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
