import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { peek, uploadKind } from '../../services/upload-kind.js';
import { parseRange } from '../../api/ranges.js';

/** What an upload is (its first bytes), peeking without losing bytes, and the Range header's forms. */
describe('upload kinds', () => {
  const las = (compressed: boolean) => {
    const head = Buffer.alloc(227);
    head.write('LASF');
    head[104] = compressed ? 0x83 : 3;
    return head;
  };

  it('tells LAS, LAZ, E57 and IFC apart by their first bytes, a scan name without a scan inside by its name', () => {
    assert.equal(uploadKind(las(false), 'x.ifc'), 'las');
    assert.equal(uploadKind(las(true), 'x.las'), 'laz');
    assert.equal(uploadKind(Buffer.from('ASTM-E57\x01\x00\x00\x00'), 'scan.bin'), 'e57');
    assert.equal(uploadKind(Buffer.from('ISO-10303-21;\nHEADER;'), 'model.ifc'), 'ifc');
    assert.equal(uploadKind(Buffer.from('ISO-10303-21;'), 'model'), 'ifc');
    assert.equal(uploadKind(Buffer.from('garbage'), 'scan.LAS'), 'las');
    assert.equal(uploadKind(Buffer.from('garbage'), 'scan.e57'), 'e57');
    assert.equal(uploadKind(Buffer.from('LASF'), 'tiny'), 'las', 'a LAS too short for its format byte is still a LAS (the reader says what is wrong)');
  });

  it('peeks at the head of a stream in small chunks and gives back all of it', async () => {
    const body = new PassThrough();
    const whole = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    const peeked = peek(body, 105);
    for (let at = 0; at < whole.length; at += 7) body.write(whole.subarray(at, at + 7));
    body.end();
    const { head, body: rest } = await peeked;
    assert.deepEqual(head, whole.subarray(0, 105));
    const chunks: Buffer[] = [];
    for await (const chunk of rest) chunks.push(chunk as Buffer);
    assert.deepEqual(Buffer.concat(chunks), whole);
  });

  it('rejects when the body breaks off before its head came', async () => {
    const body = new PassThrough();
    const peeked = peek(body, 105);
    body.write(Buffer.from('LASF'));
    body.destroy();
    await assert.rejects(peeked, /broken off/);
    const failing = new PassThrough();
    const failed = peek(failing, 105);
    failing.destroy(new Error('socket hang up'));
    await assert.rejects(failed, /socket hang up/);
  });

  it('peeks at a body shorter than asked for, and at an empty one', async () => {
    for (const bytes of [Buffer.from('ISO'), Buffer.alloc(0)]) {
      const { head, body } = await peek(Readable.from(bytes.length ? [bytes] : []), 105);
      assert.deepEqual(head, bytes);
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      assert.deepEqual(Buffer.concat(chunks), bytes);
    }
  });
});

describe('Range headers', () => {
  it('reads a-b, a- and -n, clamps to the file, refuses what lies past it, ignores what it does not take', () => {
    assert.deepEqual(parseRange('bytes=0-99', 1000), { start: 0, end: 99 });
    assert.deepEqual(parseRange('bytes=900-', 1000), { start: 900, end: 999 });
    assert.deepEqual(parseRange('bytes=-100', 1000), { start: 900, end: 999 });
    assert.deepEqual(parseRange('bytes=-5000', 1000), { start: 0, end: 999 });
    assert.deepEqual(parseRange('bytes=990-2000', 1000), { start: 990, end: 999 });
    assert.deepEqual(parseRange('bytes=999-999', 1000), { start: 999, end: 999 });
    assert.equal(parseRange('bytes=1000-', 1000), 'unsatisfiable');
    assert.equal(parseRange('bytes=1000-1001', 1000), 'unsatisfiable');
    assert.equal(parseRange('bytes=-0', 1000), 'unsatisfiable');
    assert.equal(parseRange('bytes=0-', 0), 'unsatisfiable');
    for (const ignored of [undefined, '', 'bytes=5-2', 'bytes=0-1,4-5', 'items=0-1', 'bytes=-', 'bytes=a-b']) assert.equal(parseRange(ignored, 1000), null, String(ignored));
  });
});
