import { describe, expect, it } from 'vitest';
import { clockRange, clockTime } from '../../../renderer/src/features/video-review/clip-time.js';

describe('clip clock times', () => {
  it('reads as a clock: minutes and seconds, hours past an hour, seconds cut not rounded', () => {
    expect(clockTime(0)).toBe('00:00');
    expect(clockTime(41_999)).toBe('00:41');
    expect(clockTime(12 * 60_000 + 5000)).toBe('12:05');
    expect(clockTime(2 * 3_600_000 + 65_000)).toBe('2:01:05');
    expect(clockTime(-5)).toBe('00:00');
  });

  it('writes tenths where asked (the Tracks list), rounded, hours past an hour', () => {
    expect(clockTime(1240, 1)).toBe('00:01.2');
    expect(clockTime(754_960, 1)).toBe('12:35.0');
    expect(clockTime(3_723_400, 1)).toBe('1:02:03.4');
    expect(clockTime(59_960, 1)).toBe('01:00.0');
    expect(clockTime(-5, 1)).toBe('00:00.0');
  });

  it('gives a range, or one time when it starts and ends in the same second', () => {
    expect(clockRange(0, 41_200)).toBe('00:00–00:41');
    expect(clockRange(3400, 3800)).toBe('00:03');
  });
});
