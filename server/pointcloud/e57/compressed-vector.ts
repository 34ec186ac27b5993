import { PointCloudError } from '../point-reader.js';
import { toLogical, uint64, type PagedFile } from './pages.js';

/**
 * A compressed vector binary section (ASTM E2807 §9.8): a 32-byte section header, then
 * packets one after another: data packets (one buffer per bytestream), index packets and
 * empty packets (skipped). `next()` answers the bytestream buffers of each data packet in
 * file order, reading one packet at a time.
 */
const SECTION_HEADER = 32;
const DATA_PACKET = 1;
const INDEX_PACKET = 0;
const EMPTY_PACKET = 2;

export class PacketStream {
  private position: number;

  private constructor(
    private readonly file: PagedFile,
    private readonly end: number,
    dataStart: number,
    private readonly streams: number,
    private readonly scan: string,
  ) {
    this.position = dataStart;
  }

  static async open(file: PagedFile, fileOffset: number, streams: number, scan: string): Promise<PacketStream> {
    const start = toLogical(fileOffset, `scan "${scan}" section offset`);
    const head = await file.read(start, SECTION_HEADER);
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    if (head[0] !== 1) throw new PointCloudError('malformed', `E57 scan "${scan}" points at a section of kind ${head[0]}, not a compressed vector`);
    const length = uint64(view, 8, `scan "${scan}" section length`);
    const dataOffset = uint64(view, 16, `scan "${scan}" data offset`);
    const end = start + length;
    const dataStart = dataOffset === 0 ? start + SECTION_HEADER : toLogical(dataOffset, `scan "${scan}" data offset`);
    if (length < SECTION_HEADER || dataStart < start + SECTION_HEADER || dataStart > end) {
      throw new PointCloudError('malformed', `E57 scan "${scan}" has a compressed vector section of impossible length or data offset`);
    }
    return new PacketStream(file, end, dataStart, streams, scan);
  }

  /** The next data packet's buffers (one per bytestream), or null at the end of the section. */
  async next(): Promise<Uint8Array[] | null> {
    while (this.position + 4 <= this.end) {
      const head = await this.file.read(this.position, 4);
      const type = head[0];
      const length = (head[2] | (head[3] << 8)) + 1;
      if (type !== DATA_PACKET && type !== INDEX_PACKET && type !== EMPTY_PACKET) {
        throw new PointCloudError('malformed', `E57 scan "${this.scan}" has a packet of unknown type ${type}`);
      }
      if (this.position + length > this.end) throw new PointCloudError('malformed', `E57 scan "${this.scan}" has a packet running past its section`);
      const at = this.position;
      this.position += length;
      if (type !== DATA_PACKET) continue;
      const packet = await this.file.read(at, length);
      const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
      if (length < 6) throw new PointCloudError('malformed', `E57 scan "${this.scan}" has a data packet of ${length} bytes`);
      const count = view.getUint16(4, true);
      if (count !== this.streams) {
        throw new PointCloudError('malformed', `E57 scan "${this.scan}" has a data packet of ${count} bytestreams; its prototype has ${this.streams} fields`);
      }
      let offset = 6 + 2 * count;
      if (offset > length) throw new PointCloudError('malformed', `E57 scan "${this.scan}" has a data packet too short for its bytestream lengths`);
      const buffers: Uint8Array[] = [];
      for (let i = 0; i < count; i++) {
        const size = view.getUint16(6 + 2 * i, true);
        if (offset + size > length) throw new PointCloudError('malformed', `E57 scan "${this.scan}" has a data packet whose bytestreams overrun it`);
        buffers.push(packet.subarray(offset, offset + size));
        offset += size;
      }
      return buffers;
    }
    return null;
  }
}
