/** A retry run alone never overlaps a first attempt, and first attempts still overlap one another. */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { vipsAlone, vipsShared } from '../../../../electron/core/library/vips-alone.js';

it('runs an operation alone only when no shared one is under way, and holds new ones back', async () => {
  let running = 0;
  let most = 0;
  const overlaps: string[] = [];
  let alone = false;
  const shared = (ms: number) =>
    vipsShared(async () => {
      if (alone) overlaps.push('shared began while alone');
      running++;
      most = Math.max(most, running);
      await sleep(ms);
      running--;
    });
  const first = [shared(30), shared(20), shared(40)];
  const retry = vipsAlone(async () => {
    if (running > 0) overlaps.push(`alone began beside ${running}`);
    alone = true;
    await sleep(20);
    alone = false;
    return 'own message';
  });
  const later = [shared(5), shared(5)];
  await expect(retry).resolves.toBe('own message');
  await Promise.all([...first, ...later]);
  expect(overlaps).toEqual([]);
  expect(most).toBeGreaterThan(1);
});

it('goes on after an operation alone fails', async () => {
  await expect(vipsAlone(() => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
  await expect(vipsShared(async () => 1)).resolves.toBe(1);
  await expect(vipsAlone(async () => 2)).resolves.toBe(2);
});
