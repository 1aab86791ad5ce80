/** Per-class thresholds for a target precision, with hand-computed Wilson intervals. */
import { describe, expect, it } from 'vitest';
import {
  boxesNeeded,
  classThreshold,
  wilsonInterval,
} from '../../../../electron/core/evaluation/calibrate.js';
import { thresholdReason } from '../../../../electron/shared/contract/threshold-reason.js';

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

  it('says a class cannot reach the target when even its best cut lies wholly below it', () => {
    // 149 boxes, four in five right at every depth, the top one right: the old rule called this
    // "too little evidence" because one right box is 100 %.
    const s = scores(149, 0.9);
    const t = classThreshold(
      'person',
      s,
      s.map((_, i) => i % 5 !== 4),
      0.95,
    );
    expect(t).toMatchObject({ threshold: null, reason: 'below-target', needed: null });
    expect(t.interval!.high).toBeLessThan(0.95);
    expect(thresholdReason(t, 0.95)).toMatch(
      /^Cannot reach 95\.0 %: best 8\d\.\d % \(\d+\.\d %–\d+\.\d %\) on its \d+ top-scored boxes$/,
    );
  });

  it('says how many boxes at that precision would carry the target', () => {
    const t = classThreshold('kiwi', [0.9, 0.8, 0.7], [true, true, true], 0.95);
    // At 100 %, the Wilson lower end clears 95 % from 73 boxes on (z² / (z² + n) ≤ 0.05).
    expect(t.needed).toBe(73);
    expect(wilsonInterval(73, 73).low).toBeGreaterThanOrEqual(0.95);
    expect(wilsonInterval(72, 72).low).toBeLessThan(0.95);
    expect(thresholdReason(t, 0.95)).toBe(
      'Too little evidence: 100.0 % (43.9 %–100.0 %) on its 3 top-scored boxes; about 73 reviewed boxes at that precision would carry 95.0 %',
    );
    expect(thresholdReason(t, 0.95, true)).toBe(
      'Too little evidence: about 73 boxes at this precision would carry it',
    );
    expect(boxesNeeded(0.95, 0.95)).toBeNull();
  });
});
