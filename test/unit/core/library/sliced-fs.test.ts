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

  it('lets an isolated call through without a turn of the event loop, however long since the last', async () => {
    const fs = new SlicedFs('auto', { statSync: () => fakeStats });
    await fs.stat('/x');
    await new Promise((resolve) => setTimeout(resolve, 30));
    // An upload's check comes alone, long after the previous one: it must not wait a loop turn.
    let turned = false;
    setImmediate(() => (turned = true));
    await fs.stat('/x');
    expect(turned).toBe(false);
  });

  it('yields once a stretch of calls without a loop turn outlasts its slice', async () => {
    const fs = new SlicedFs('auto', { statSync: () => fakeStats }, 2);
    let turned = false;
    setImmediate(() => (turned = true));
    // The caller's work between calls counts: the loop has not turned for all of it.
    for (let i = 0; i < 10 && !turned; i++) {
      await fs.stat('/x');
      busyWait(0.5);
    }
    expect(turned).toBe(true);
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
