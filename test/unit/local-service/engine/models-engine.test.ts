// Real models on real photos. Needs `npm run build:node` first (the workers run compiled JS).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DetectionEngine,
  EngineDetection,
  NormalisedBox,
} from '../../../../electron/local-service/engine/engine-types.js';
import { createModelsEngine } from '../../../../electron/local-service/engine/models-engine.js';
import { SOLUTIONS } from '../../../../electron/local-service/solutions.js';
import { realMediaDir } from '../../../support/real-media.js';
import { loadRgb } from '../../../support/test-images.js';

let engine: DetectionEngine;
let media: string;
const statusAtStart: string[] = [];

beforeAll(async () => {
  engine = createModelsEngine({ workers: 2, solutions: SOLUTIONS });
  statusAtStart.push(engine.status().state);
  media = await realMediaDir();
  await engine.whenReady();
});

afterAll(async () => {
  await engine.close();
});

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`expected ${what}`);
  return value;
}

const labels = (ds: EngineDetection[]): string[] => ds.map((d) => d.label);
const overlap = (a: NormalisedBox, b: NormalisedBox): number =>
  Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));

function expectValidBoxes(ds: EngineDetection[]): void {
  for (const d of ds) {
    expect(d.score).toBeGreaterThan(0);
    expect(d.score).toBeLessThanOrEqual(1);
    for (const v of [d.box.x, d.box.y, d.box.w, d.box.h]) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
    expect(d.box.x + d.box.w).toBeLessThanOrEqual(1 + 1e-9);
    expect(d.box.y + d.box.h).toBeLessThanOrEqual(1 + 1e-9);
  }
}

/** Messi, as a hand-measured box on messi5.jpg (548×342). */
const MESSI: NormalisedBox = { x: 0.2, y: 0.2, w: 0.65, h: 0.75 };

describe('models engine', () => {
  it('reports loading until every model is loaded, then ready for each solution', () => {
    expect(statusAtStart).toEqual(['loading']);
    expect(engine.status()).toEqual({
      state: 'ready',
      solutions: { objects: 'ready', face: 'ready', hand: 'ready', body: 'ready' },
    });
  });

  it('objects: finds Messi and the ball in messi5.jpg', async () => {
    const { detections, inferenceMs } = await engine.detect(
      'objects',
      await loadRgb(media, 'messi5.jpg'),
    );
    expectValidBoxes(detections);
    expect(inferenceMs).toBeGreaterThan(0);
    const best = must(detections[0], 'a detection');
    expect(best.label).toBe('person');
    expect(best.classId).toBe(0);
    expect(overlap(best.box, MESSI) / (best.box.w * best.box.h)).toBeGreaterThan(0.8);
    const ball = must(
      detections.find((d) => d.label === 'sports ball'),
      'a sports ball',
    );
    expect(ball.classId).toBe(32);
    // The ball sits at Messi's feet, bottom right of centre.
    expect(ball.box.x + ball.box.w / 2).toBeGreaterThan(0.6);
    expect(ball.box.y + ball.box.h / 2).toBeGreaterThan(0.8);
  });

  it('objects: finds both players in basketball1.png (a greyscale frame)', async () => {
    const { detections } = await engine.detect('objects', await loadRgb(media, 'basketball1.png'));
    expectValidBoxes(detections);
    // At the library's default minimum score (0.3): the service keeps boxes down to 0.05.
    const people = detections.filter((d) => d.label === 'person' && d.score >= 0.3);
    expect(people).toHaveLength(2);
    const centres = people.map((p) => p.box.x + p.box.w / 2).sort();
    expect(centres[0]).toBeLessThan(0.3); // the player on the left
    expect(centres[1]).toBeGreaterThan(0.7); // the one on the right
  });

  it('objects: sees fruit (apples and oranges) in fruits.jpg, and no people', async () => {
    const { detections } = await engine.detect('objects', await loadRgb(media, 'fruits.jpg'));
    expectValidBoxes(detections);
    // At the library's default minimum score (0.3): the service keeps boxes down to 0.05.
    const shown = detections.filter((d) => d.score >= 0.3);
    expect(labels(shown)).toContain('apple');
    expect(labels(shown)).toContain('orange');
    expect(labels(shown)).not.toContain('person');
  });

  it('face: finds the one clear face in messi5.jpg, on Messi', async () => {
    const { detections } = await engine.detect('face', await loadRgb(media, 'messi5.jpg'));
    expectValidBoxes(detections);
    expect(detections).toHaveLength(1);
    const face = must(detections[0], 'a face');
    expect(face.label).toBe('face');
    expect(face.score).toBeGreaterThan(0.7);
    // Messi's head: around (0.45, 0.35) of the frame, small.
    expect(Math.abs(face.box.x + face.box.w / 2 - 0.45)).toBeLessThan(0.05);
    expect(Math.abs(face.box.y + face.box.h / 2 - 0.34)).toBeLessThan(0.06);
    expect(face.box.w).toBeLessThan(0.15);
  });

  it('hand: finds Messi’s outstretched hand in a crop around it', async () => {
    const crop = { left: 40, top: 40, width: 240, height: 160 };
    const { detections } = await engine.detect('hand', await loadRgb(media, 'messi5.jpg', crop));
    expectValidBoxes(detections);
    expect(detections.length).toBeGreaterThanOrEqual(1);
    // The hand is at about x 62–107, y 83–102 of the full picture.
    const hand = { x: (62 - 40) / 240, y: (83 - 40) / 160, w: 45 / 240, h: 19 / 160 };
    expect(detections.some((d) => d.label === 'hand' && overlap(d.box, hand) > 0)).toBe(true);
  });

  it('body: boxes the one person on messi5.jpg from his pose', async () => {
    const { detections } = await engine.detect('body', await loadRgb(media, 'messi5.jpg'));
    expectValidBoxes(detections);
    expect(detections).toHaveLength(1);
    const body = must(detections[0], 'a body');
    expect(body).toMatchObject({ label: 'person', classId: 0 });
    expect(overlap(body.box, MESSI) / (MESSI.w * MESSI.h)).toBeGreaterThan(0.7);
  });

  it('body: finds nobody in a picture of fruit', async () => {
    const { detections } = await engine.detect('body', await loadRgb(media, 'fruits.jpg'));
    expect(detections).toEqual([]);
  });

  it('rejects with AbortError when aborted before the work starts, and keeps working', async () => {
    const image = await loadRgb(media, 'fruits.jpg');
    const aborted = AbortSignal.abort();
    await expect(engine.detect('objects', image, aborted)).rejects.toMatchObject({
      name: 'AbortError',
    });

    // Two busy workers, a third job waits in the queue and is cancelled there.
    const copy = (): typeof image => ({ ...image, data: image.data.slice() });
    const busy = [engine.detect('objects', copy()), engine.detect('objects', copy())];
    const controller = new AbortController();
    const queued = engine.detect('objects', copy(), controller.signal);
    controller.abort();
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
    await Promise.all(busy);

    // Aborted mid-run: the caller is answered at once, the late result is dropped.
    const running = new AbortController();
    const mid = engine.detect('objects', copy(), running.signal);
    setTimeout(() => running.abort(), 20);
    await expect(mid).rejects.toMatchObject({ name: 'AbortError' });
    const after = await engine.detect('body', await loadRgb(media, 'messi5.jpg'));
    expect(after.detections).toHaveLength(1);
  });

  it('keeps the event loop free while models run', async () => {
    const image = await loadRgb(media, 'messi5.jpg');
    // Counted, not timed: timers keep firing while a CenterNet run (300 ms+) is in progress. A
    // detection on the main thread would hold the loop for the whole run: no tick in between.
    let done = false;
    const work = engine.detect('objects', image).finally(() => (done = true));
    let ticks = 0;
    while (!done) {
      await new Promise((r) => setTimeout(r, 5));
      if (!done) ticks++;
    }
    await work;
    expect(ticks).toBeGreaterThanOrEqual(3);
  });

  it('rejects unknown solutions', async () => {
    const image = { data: new Uint8Array(3 * 4), width: 2, height: 2 };
    await expect(engine.detect('nope', image)).rejects.toThrow(/Unknown solution/);
  });
});
