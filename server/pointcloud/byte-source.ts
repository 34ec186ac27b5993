import { open, type FileHandle } from 'node:fs/promises';

/** Random access to a file's bytes: readers ask for the ranges they need. */
export interface ByteSource {
  readonly size: number;
  /** `length` bytes from `offset`; fewer only at the end of the file. */
  read(offset: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** A file on disk. */
export class FileSource implements ByteSource {
  private constructor(private readonly handle: FileHandle, readonly size: number) {}

  static async open(path: string): Promise<FileSource> {
    const handle = await open(path, 'r');
    const { size } = await handle.stat();
    return new FileSource(handle, size);
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    const bytes = new Uint8Array(Math.max(0, Math.min(length, this.size - offset)));
    let done = 0;
    while (done < bytes.length) {
      const { bytesRead } = await this.handle.read(bytes, done, bytes.length - done, offset + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return done === bytes.length ? bytes : bytes.subarray(0, done);
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** Bytes already in memory (tests, small uploads). */
export class MemorySource implements ByteSource {
  constructor(private readonly bytes: Uint8Array) {}

  get size() {
    return this.bytes.length;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    return this.bytes.subarray(offset, Math.min(this.bytes.length, offset + length));
  }

  async close(): Promise<void> {}
}
