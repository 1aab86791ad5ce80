import { describe, expect, it } from 'vitest';
import { clampPollInterval } from '../../../../electron/core/service/poll-interval.js';

const bounds = { min: 250, max: 5000 };

describe('clampPollInterval', () => {
  it('keeps a sensible hint', () => {
    expect(clampPollInterval(1200, bounds)).toBe(1200);
  });

  it('waits the minimum for a missing, zero, negative or non-finite hint', () => {
    for (const v of [undefined, null, 0, -5, Number.NaN, Number.NEGATIVE_INFINITY]) {
      expect(clampPollInterval(v, bounds)).toBe(250);
    }
    expect(clampPollInterval(10, bounds)).toBe(250);
  });

  it('caps a huge hint at the maximum', () => {
    expect(clampPollInterval(1e12, bounds)).toBe(5000);
    expect(clampPollInterval(JSON.parse('1e999'), bounds)).toBe(5000);
  });

  it('survives inverted bounds', () => {
    expect(clampPollInterval(9000, { min: 300, max: 100 })).toBe(300);
  });
});
