import { describe, expect, it } from 'vitest';
import type { RgbImage } from '../../../../electron/local-service/engine/engine-types.js';
import { runJobFrames } from '../../../../electron/local-service/jobs/run-job-frames.js';

const job = { id: 'job-1', solution: 'objects', frames_done: 0, frames_expected: 100 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A timeline of what happened, in order: `pull N`, `start N`, `end N`. */
function recorder(count: number, slowMs: (index: number) => number, decodeMs = 0) {
  const events: string[] = [];
  const stored: { idx: number; done: number }[] = [];
  async function* frames() {
    for (let index = 0; index < count; index++) {
      if (decodeMs) await sleep(decodeMs);
      events.push(`pull ${index}`);
      const rgb: RgbImage = { data: new Uint8Array([index, 0, 0]), width: 1, height: 1 };
      yield { index, timeMs: index * 200, rgb };
    }
  }
  const engine = {
    async detect(_solution: string, image: RgbImage) {
      const index = image.data[0] as number;
      events.push(`start ${index}`);
      await sleep(slowMs(index));
      events.push(`end ${index}`);
      return { detections: [], inferenceMs: 1 };
    },
  };
  const repo = {
    appendFrames(_id: string, batch: { idx: number }[], done: number) {
      for (const f of batch) stored.push({ idx: f.idx, done });
    },
  };
  return { events, stored, frames: frames(), engine, repo };
}

describe('runJobFrames', () => {
  it('gives an idle worker the next frame while an older frame is still on the engine', async () => {
    // Frame 0 is slow; frames 1, 2, 3 are fast: the second worker must not wait for frame 0.
    const r = recorder(4, (i) => (i === 0 ? 300 : 10));
    await runJobFrames({ job, ...r, signal: new AbortController().signal, inFlight: 2 });
    expect(r.events.indexOf('start 2')).toBeLessThan(r.events.indexOf('end 0'));
    expect(r.events.indexOf('start 3')).toBeLessThan(r.events.indexOf('end 0'));
    // Results are still stored in frame order, every one of them, with a matching count.
    expect(r.stored.map((s) => s.idx)).toEqual([0, 1, 2, 3]);
    expect(r.stored.at(-1)?.done).toBe(4);
  });

  it('decodes the next frame while the engine works on the current one', async () => {
    const r = recorder(3, () => 50);
    await runJobFrames({ job, ...r, signal: new AbortController().signal, inFlight: 1 });
    expect(r.events.indexOf('pull 1')).toBeLessThan(r.events.indexOf('end 0'));
    expect(r.events.indexOf('pull 2')).toBeLessThan(r.events.indexOf('end 1'));
    expect(r.stored.map((s) => s.idx)).toEqual([0, 1, 2]);
  });

  it('finishes whatever the order in which the engine and the decoder answer', async () => {
    for (const inFlight of [1, 2, 4]) {
      const r = recorder(25, () => 0);
      await runJobFrames({ job, ...r, signal: new AbortController().signal, inFlight });
      expect(r.stored.map((s) => s.idx)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    }
    // The oldest frame answers while the next one is being decoded, with a full window behind it.
    const r = recorder(12, (i) => (i === 1 ? 60 : 1), 20);
    await runJobFrames({ job, ...r, signal: new AbortController().signal, inFlight: 2 });
    expect(r.stored.map((s) => s.idx)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('never analyses past the frames reserved for the job', async () => {
    const r = recorder(10, () => 1);
    const reserved = { ...job, frames_expected: 3 };
    await runJobFrames({ job: reserved, ...r, signal: new AbortController().signal, inFlight: 2 });
    expect(r.events.filter((e) => e.startsWith('start'))).toEqual([
      'start 0',
      'start 1',
      'start 2',
    ]);
    expect(r.stored.map((s) => s.idx)).toEqual([0, 1, 2]);
  });

  it('keeps the frames answered before a cancel, in order, and stops at once', async () => {
    const r = recorder(50, (i) => (i === 2 ? 10_000 : 5));
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 150);
    const t0 = performance.now();
    await expect(
      runJobFrames({ job, ...r, signal: abort.signal, inFlight: 2 }),
    ).rejects.toBeDefined();
    expect(performance.now() - t0).toBeLessThan(2000);
    // Frames 0 and 1 were answered and are stored; nothing after the stuck frame 2 is counted.
    expect(r.stored.map((s) => s.idx)).toEqual([0, 1]);
    expect(r.stored.at(-1)?.done).toBe(2);
  });
});
