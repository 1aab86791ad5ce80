import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareRun } from '../../../electron/application/prepare-run.js';
import { storeFixture, type StoreFixture } from '../core/store/store-fixture.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await storeFixture();
});
afterEach(() => fx.done());

describe('prepareRun (the start of a run, app and CLI alike)', () => {
  it('takes the lock, reads kept answers again, then connects the service, in that order', async () => {
    const steps: string[] = [];
    const start = await prepareRun(fx.store, {
      lock: () => (steps.push('lock'), Promise.resolve(true)),
      reread: (r) => steps.push(`reread ${r.read}/${r.kept}`),
      connect: () => (steps.push('connect'), Promise.resolve('the service')),
    });
    expect(steps).toEqual(['lock', 'reread 0/0', 'connect']);
    expect(start).toEqual({ reread: { read: 0, kept: 0 }, service: 'the service' });
  });

  it('does nothing else when the lock is not taken (stopped while waiting)', async () => {
    const steps: string[] = [];
    const start = await prepareRun(fx.store, {
      lock: () => Promise.resolve(false),
      reread: () => steps.push('reread'),
      connect: () => (steps.push('connect'), Promise.resolve(1)),
    });
    expect(start).toBeUndefined();
    expect(steps).toEqual([]);
  });

  it('a lock refused (another run) stops it before anything is read or connected', async () => {
    const steps: string[] = [];
    const busy = new Error('library busy');
    await expect(
      prepareRun(fx.store, {
        lock: () => Promise.reject(busy),
        reread: () => steps.push('reread'),
        connect: () => (steps.push('connect'), Promise.resolve(1)),
      }),
    ).rejects.toBe(busy);
    expect(steps).toEqual([]);
  });
});
