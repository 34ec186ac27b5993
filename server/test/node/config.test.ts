import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readSettings } from '../../config.js';

/**
 * readSettings (server/config.ts): the limits on processing. PARALLEL_READ_MAX_BYTES
 * follows MAX_PROCESS_BYTES unless it is given: by default every file processed is read
 * in two threads.
 */
describe('settings: processing limits', () => {
  it('reads every processed file in two threads by default', () => {
    const settings = readSettings({});
    assert.equal(settings.maxProcessBytes, 512 * 1024 ** 2);
    assert.equal(settings.parallelReadMaxBytes, settings.maxProcessBytes);
    assert.equal(readSettings({ MAX_PROCESS_BYTES: '1000' }).parallelReadMaxBytes, 1000);
  });

  it('takes PARALLEL_READ_MAX_BYTES on its own, and refuses what is not a number', () => {
    const settings = readSettings({ PARALLEL_READ_MAX_BYTES: '268435456' });
    assert.equal(settings.parallelReadMaxBytes, 268435456);
    assert.equal(settings.maxProcessBytes, 512 * 1024 ** 2);
    assert.throws(() => readSettings({ PARALLEL_READ_MAX_BYTES: 'half' }), /PARALLEL_READ_MAX_BYTES must be a number, not half/);
  });
});
