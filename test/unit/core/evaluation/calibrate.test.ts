/** Per-class thresholds for a target precision, with hand-computed Wilson intervals. */
import { describe, expect, it } from 'vitest';
import { classThreshold, wilsonInterval } from '../../../../electron/core/evaluation/calibrate.js';

describe('Wilson interval', () => {
  it('matches the published formula on textbook cases', () => {
    // 8 of 10: (0.4902, 0.9433); all of n: low = n / (n + z²).
    const w = wilsonInterval(8, 10);
    expect(w.low).toBeCloseTo(0.4902, 4);
    expect(w.high).toBeCloseTo(0.9433, 4);
    expect(wilsonInterval(80, 80).low).toBeCloseTo(80 / (80 + 1.959963984540054 ** 2), 12);
    expect(wilsonInterval(0, 5)).toEqual({ low: 0, high: expect.closeTo(0.4345, 4) });
  });
});

describe('class thresholds', () => {
  const scores = (n: number, from: number) => Array.from({ length: n }, (_, i) => from - i * 0.001);

  it('proposes the lowest score whose interval clears the target', () => {
    // 80 right answers from 0.99 down, then 20 wrong ones below: 80/80 has a low bound of 0.954.
    const s = [...scores(80, 0.99), ...scores(20, 0.5)];
    const hits = s.map((_, i) => i < 80);
    const t = classThreshold('person', s, hits, 0.95);
    expect(t).toMatchObject({ reason: 'ok', boxes: 80, precision: 1 });
    expect(t.threshold).toBeCloseTo(0.99 - 79 * 0.001, 12);
    expect(t.interval!.low).toBeGreaterThanOrEqual(0.95);
  });

  it('says a class has too little evidence when its precision meets the target on few boxes', () => {
    const t = classThreshold('kiwi', [0.9, 0.8, 0.7], [true, true, true], 0.95);
    expect(t).toMatchObject({
      threshold: null,
      reason: 'too-little-evidence',
      boxes: 3,
      precision: 1,
    });
  });

  it('says when the precision never reaches the target, and when there is nothing to go on', () => {
    const s = scores(200, 0.9);
    expect(
      classThreshold(
        'dog',
        s,
        s.map((_, i) => i % 2 === 1),
        0.95,
      ),
    ).toMatchObject({
      threshold: null,
      reason: 'below-target',
      precision: 0.5,
    });
    expect(classThreshold('cat', [], [], 0.95)).toMatchObject({ reason: 'no-boxes', boxes: 0 });
  });

  it('never cuts between boxes of equal score', () => {
    // 100 right boxes at 0.9, then at 0.5 one right and one wrong: the cut is at 0.9 or at 0.5 for both.
    const s = [...Array<number>(100).fill(0.9), 0.5, 0.5];
    const hits = [...Array<boolean>(100).fill(true), true, false];
    const t = classThreshold('apple', s, hits, 0.95);
    expect(t.threshold).toBe(0.9);
    expect(t.boxes).toBe(100);
  });
});
