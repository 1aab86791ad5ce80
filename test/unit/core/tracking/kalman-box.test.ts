import { describe, expect, it } from 'vitest';
import { KalmanBox } from '../../../../electron/core/tracking/kalman-box.js';

const box = (x: number, y = 0.3, w = 0.05, h = 0.15) => ({ x, y, w, h });

describe('KalmanBox', () => {
  it('starts at the box it was born from, still', () => {
    const k = new KalmanBox(box(0.2));
    expect(k.box()).toEqual(box(0.2));
    k.predict();
    expect(k.box().x).toBeCloseTo(0.2, 12);
    expect(k.velocity()).toEqual([0, 0, 0, 0]);
  });

  it('learns a steady velocity from its updates and predicts the next box with it', () => {
    const k = new KalmanBox(box(0.1));
    for (let f = 1; f <= 24; f++) {
      k.predict();
      k.update(box(0.1 + 0.02 * f));
    }
    expect(Math.abs(k.velocity()[0] - 0.02)).toBeLessThan(0.0005);
    expect(k.velocity()[1]).toBeCloseTo(0, 6);
    k.predict();
    k.predict(); // two frames without a box (an occlusion) still move on
    expect(Math.abs(k.box().x - (0.1 + 0.02 * 26))).toBeLessThan(0.002);
    expect(k.box().w).toBeCloseTo(0.05, 6);
  });

  it('weighs a new box against its prediction: an update lands between the two', () => {
    const k = new KalmanBox(box(0.5));
    for (let f = 0; f < 5; f++) {
      k.predict();
      k.update(box(0.5));
    }
    k.predict();
    k.update(box(0.52));
    const x = k.box().x;
    expect(x).toBeGreaterThan(0.5);
    expect(x).toBeLessThan(0.52);
  });

  it('never predicts a box turned inside out', () => {
    const k = new KalmanBox(box(0.5, 0.3, 0.1, 0.1));
    for (let f = 1; f <= 6; f++) {
      k.predict();
      k.update(box(0.5, 0.3, 0.1 - 0.015 * f, 0.1 - 0.015 * f));
    }
    for (let f = 0; f < 20; f++) k.predict();
    expect(k.box().w).toBeGreaterThan(0);
    expect(k.box().h).toBeGreaterThan(0);
  });
});
