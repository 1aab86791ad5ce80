import type { Stats } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SlicedFs } from '../../../../electron/core/library/scan-fs.js';

const busyWait = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
const fakeStats = {} as Stats;

describe('SlicedFs: synchronous while the filesystem is fast', () => {
  it('stays synchronous when the caller, not the filesystem, is slow between calls', async () => {
    const fs = new SlicedFs('auto', { statSync: () => fakeStats });
    for (let i = 0; i < 130; i++) {
      await fs.stat('/x');
      // A page stored between reads: slow, but not the filesystem's time.
      if (i % 10 === 0) busyWait(20);
    }
    expect(fs.synchronous).toBe(true);
  });

  it('goes asynchronous for good once the calls themselves are slow on average', async () => {
    let asyncCalls = 0;
    const fs = new SlicedFs('auto', {
      statSync: () => (busyWait(1.5), fakeStats),
      stat: async () => (asyncCalls++, fakeStats),
    });
    for (let i = 0; i < 64; i++) await fs.stat('/x');
    expect(fs.synchronous).toBe(false);
    await fs.run(
      () => 'sync',
      async () => 'async',
    );
    await fs.stat('/x');
    expect(asyncCalls).toBe(1);
  });
});
