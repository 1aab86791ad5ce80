import { describe, expect, it } from 'vitest';
import { createClipClock } from '../../../renderer/src/features/video-review/clip-clock.js';
import { withEmptyFrames } from '../../../renderer/src/features/video-review/clip-frames.js';
import { count } from '../../../renderer/src/ui/format.js';

describe('the clip clock', () => {
  it('tells its listeners of a new time only, until they stop listening', () => {
    const clock = createClipClock();
    const heard: number[] = [];
    const stop = clock.subscribe(() => heard.push(clock.get()));
    clock.set(1000);
    clock.set(1000);
    clock.set(2500);
    stop();
    clock.set(4000);
    expect(heard).toEqual([1000, 2500]);
    expect(clock.get()).toBe(4000);
  });
});

describe('frames with the empty samples between them', () => {
  it('adds an empty frame for each sample without boxes, in time order, keeping the others', () => {
    const withBoxes = [
      { index: 1, timeMs: 1000, boxes: [] },
      { index: 3, timeMs: 3000, boxes: [] },
    ];
    const empty = new Map([
      [2, 2000],
      [0, 0],
    ]);
    const frames = withEmptyFrames(withBoxes, empty);
    expect(frames.map((f) => [f.index, f.timeMs])).toEqual([
      [0, 0],
      [1, 1000],
      [2, 2000],
      [3, 3000],
    ]);
    expect(frames[1]).toBe(withBoxes[0]);
  });
});

describe('counts', () => {
  it('group thousands and nothing below, rounded', () => {
    expect([999, 999.6, 1000, 1_234_567, -1234, 0].map(count)).toEqual([
      '999',
      '1,000',
      '1,000',
      '1,234,567',
      '-1,234',
      '0',
    ]);
  });
});
