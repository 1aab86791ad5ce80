import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../../../electron/core/store/store-error.js';
import { box, result, storeFixture, type StoreFixture } from './store-fixture.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await storeFixture();
});
afterEach(() => fx.done());

describe('results', () => {
  it('saves a result with its boxes, found again by content and solution after a restart', () => {
    const saved = fx.store.results.save(
      result('h1', [
        box('person', 0.91),
        box('car', 0.5, { frameIndex: 3, timeMs: 120, origin: 'added', review: 'accepted' }),
      ]),
    );
    expect(saved).toMatchObject({
      contentHash: 'h1',
      solution: 'objects',
      boxCount: 2,
      model: 'centernet',
      createdAt: fx.clock.t,
    });
    const store = fx.reopen();
    expect(store.results.find('h1', 'objects')).toEqual(saved);
    expect(store.results.find('h1', 'faces')).toBeUndefined();
    const dets = store.results.detections(saved.id);
    expect(dets).toEqual([
      {
        id: expect.any(Number),
        resultId: saved.id,
        frameIndex: 0,
        timeMs: null,
        label: 'person',
        classId: 0,
        score: 0.91,
        bbox: { x: 0.1, y: 0.2, w: 0.3, h: 0.4 },
        origin: 'model',
        review: 'pending',
      },
      expect.objectContaining({ label: 'car', frameIndex: 3, timeMs: 120, origin: 'added' }),
    ]);
  });

  it('replaces a previous result for the same content, keeping its id and dropping old boxes', () => {
    const first = fx.store.results.save(result('h1', [box('person', 0.9), box('dog', 0.8)]));
    fx.clock.t += 5000;
    const second = fx.store.results.save(result('h1', [box('cat', 0.7)], { model: 'v2' }));
    expect(second).toMatchObject({ id: first.id, boxCount: 1, model: 'v2', createdAt: fx.clock.t });
    expect(fx.store.results.detections(first.id).map((d) => d.label)).toEqual(['cat']);
  });

  it('a save that fails half-way leaves the previous result untouched', () => {
    const first = fx.store.results.save(result('h1', [box('person', 0.9)]));
    const broken = box('dog', 0.8, { review: 'maybe' as never });
    expect(() => fx.store.results.save(result('h1', [box('cat', 0.5), broken]))).toThrow(/CHECK/);
    const odd = box('dog', 0.8, { origin: 'guessed' as never });
    expect(() => fx.store.results.save(result('h1', [odd]))).toThrow(/CHECK/);
    expect(fx.store.results.find('h1', 'objects')).toEqual(first);
    expect(fx.store.results.detections(first.id).map((d) => d.label)).toEqual(['person']);
  });

  it('rejecting a box takes it out of the box count; accepting it again puts it back', () => {
    const saved = fx.store.results.save(result('h1', [box('person', 0.9), box('dog', 0.8)]));
    const [person] = fx.store.results.detections(saved.id);
    fx.store.results.setReview(person!.id, 'rejected');
    expect(fx.store.results.find('h1', 'objects')?.boxCount).toBe(1);
    expect(fx.store.results.detections(saved.id)[0]?.review).toBe('rejected');
    fx.store.results.setReview(person!.id, 'accepted');
    expect(fx.store.results.find('h1', 'objects')?.boxCount).toBe(2);
    expect(() => fx.store.results.setReview(987654, 'accepted')).toThrow(StoreError);
  });
});
