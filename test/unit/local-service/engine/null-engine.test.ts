import { describe, expect, it } from 'vitest';
import type { RgbImage } from '../../../../electron/local-service/engine/engine-types.js';
import { createNullEngine } from '../../../../electron/local-service/engine/null-engine.js';
import { SOLUTIONS } from '../../../../electron/local-service/solutions.js';

/** A dark picture with one bright square whose position and colour we choose. */
function picture(cx: number, cy: number, colour: [number, number, number]): RgbImage {
  const width = 320;
  const height = 240;
  const data = new Uint8Array(width * height * 3).fill(20);
  for (let y = cy; y < cy + 60; y++)
    for (let x = cx; x < cx + 80; x++) data.set(colour, (y * width + x) * 3);
  return { data, width, height };
}

describe('null engine', () => {
  it('is ready at once for every solution', async () => {
    const engine = createNullEngine({ latencyMs: 0, solutions: SOLUTIONS });
    await engine.whenReady();
    expect(engine.kind).toBe('null');
    expect(engine.status()).toEqual({
      state: 'ready',
      solutions: { objects: 'ready', face: 'ready', hand: 'ready', body: 'ready' },
    });
  });

  it('derives boxes from the pixels: same picture, same boxes; another picture, other boxes', async () => {
    const engine = createNullEngine({ latencyMs: 0, solutions: SOLUTIONS });
    const a1 = await engine.detect('objects', picture(0, 0, [250, 200, 40]));
    const a2 = await engine.detect('objects', picture(0, 0, [250, 200, 40]));
    const moved = await engine.detect('objects', picture(240, 180, [250, 200, 40]));
    const recoloured = await engine.detect('objects', picture(0, 0, [40, 90, 250]));
    expect(a1.detections.length).toBeGreaterThan(0);
    expect(a2).toEqual(a1);
    expect(moved.detections.map((d) => d.box)).not.toEqual(a1.detections.map((d) => d.box));
    expect(recoloured.detections.map((d) => d.label)).not.toEqual(
      a1.detections.map((d) => d.label),
    );
    for (const d of a1.detections) expect(SOLUTIONS[0]?.classes).toContain(d.label);
    const flat = { data: new Uint8Array(64 * 64 * 3).fill(128), width: 64, height: 64 };
    expect((await engine.detect('face', flat)).detections).toEqual([]);
  });

  it('labels with the solution’s own classes', async () => {
    const engine = createNullEngine({ latencyMs: 0, solutions: SOLUTIONS });
    const { detections } = await engine.detect('face', picture(100, 100, [255, 255, 255]));
    expect(detections.length).toBeGreaterThan(0);
    expect(new Set(detections.map((d) => d.label))).toEqual(new Set(['face']));
  });

  it('takes the configured latency', async () => {
    const engine = createNullEngine({ latencyMs: 50, solutions: SOLUTIONS });
    const t = performance.now();
    const result = await engine.detect('objects', picture(0, 0, [255, 0, 0]));
    expect(performance.now() - t).toBeGreaterThanOrEqual(45);
    expect(result.inferenceMs).toBe(50);
  });

  it('does thousands of calls a second at latency 0', async () => {
    const engine = createNullEngine({ latencyMs: 0, solutions: SOLUTIONS });
    const image = { data: new Uint8Array(1024 * 768 * 3).fill(90), width: 1024, height: 768 };
    const t = performance.now();
    for (let i = 0; i < 2000; i++) await engine.detect('objects', image);
    // Generous on a loaded machine; the rate itself is measured by `npm run bench`.
    expect(performance.now() - t).toBeLessThan(10_000);
  });

  it('honours AbortSignal, before and during the wait', async () => {
    const engine = createNullEngine({ latencyMs: 60_000, solutions: SOLUTIONS });
    const image = picture(0, 0, [255, 0, 0]);
    await expect(engine.detect('objects', image, AbortSignal.abort())).rejects.toMatchObject({
      name: 'AbortError',
    });
    const controller = new AbortController();
    const t = performance.now();
    const pending = engine.detect('objects', image, controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - t).toBeLessThan(5000); // far below the 60 s latency
  });
});
