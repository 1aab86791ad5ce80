import { describe, expect, it } from 'vitest';
import type { FileRead } from '../../../../electron/core/library/read-files.js';
import { fromWire, toWire } from '../../../../electron/core/library/read-wire.js';

const base = {
  ok: true as const,
  hash: 'ab'.repeat(32),
  size: 283,
  mtimeMs: 1.5e12,
  fileId: '1:2',
};

describe('reads across the thread boundary (read-wire.ts)', () => {
  it('arrive exactly as read, whatever the probe, with a parsed header sent flat', () => {
    const reads: FileRead[] = [
      {
        ...base,
        probe: {
          ok: true,
          info: {
            width: 16,
            height: 12,
            orientation: 6,
            format: 'jpeg',
            durationMs: null,
            fps: null,
            rotation: 0,
          },
        },
      },
      { ...base, probe: undefined },
      { ...base, probe: { ok: false, code: 'undecodable_media', message: 'Broken.' } },
      { ok: false, error: { code: 'not_found', message: 'The file no longer exists.' } },
    ];
    for (const read of reads) {
      const wire = toWire(read);
      // What a worker posts is copied as it would be between threads.
      expect(fromWire(structuredClone(wire))).toEqual(read);
      if (read.ok && read.probe?.ok) {
        const nested = Object.values(wire).filter((v) => typeof v === 'object' && v !== null);
        expect(nested).toEqual([]);
      }
    }
  });
});
