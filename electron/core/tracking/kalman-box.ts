/**
 * A constant-velocity Kalman filter for one box: state (cx, cy, w, h) and their velocities per
 * analysed frame, measurements (cx, cy, w, h). With this motion model and noise that is
 * independent per coordinate, the 8×8 covariance stays block-diagonal, so four 2×2 filters
 * (position, velocity) give exactly the full filter's estimate with a fraction of the arithmetic.
 * Noise is proportional to the box's size (a far, small walker moves fewer pixels than a near one):
 * widths scale the x coordinates, heights the y ones, as the picture's axes are normalised apart.
 */
import type { NormBox } from '../../shared/geometry/box-math.js';

export interface KalmanNoise {
  /** Standard deviation of a measured position or size, as a fraction of the box's size. */
  position: number;
  /** Standard deviation of the change in velocity per frame, as a fraction of the box's size. */
  velocity: number;
  /**
   * Standard deviation of the velocity of a new track, per frame, as a fraction of its size.
   * Analysed frames are sampled (a few per second): a walker may move its own width between two.
   */
  birthVelocity: number;
}

export const DEFAULT_NOISE: KalmanNoise = { position: 0.05, velocity: 0.05, birthVelocity: 0.5 };

/** The smallest width or height a prediction may shrink to (a box never turns inside out). */
const MIN_SIDE = 1e-4;

export class KalmanBox {
  /** Per coordinate k (cx, cy, w, h): value, velocity, and the covariance p00, p01, p11. */
  private readonly x = new Float64Array(4);
  private readonly v = new Float64Array(4);
  private readonly p00 = new Float64Array(4);
  private readonly p01 = new Float64Array(4);
  private readonly p11 = new Float64Array(4);

  constructor(
    box: NormBox,
    private readonly noise: KalmanNoise = DEFAULT_NOISE,
  ) {
    const z = measurement(box);
    for (let k = 0; k < 4; k++) {
      const s = this.scale(k, box);
      this.x[k] = z[k] as number;
      this.p00[k] = (noise.position * s) ** 2;
      this.p11[k] = (noise.birthVelocity * s) ** 2;
    }
  }

  /** Moves the estimate one frame ahead, growing its uncertainty. */
  predict(): void {
    for (let k = 0; k < 4; k++) {
      const s = this.side(k);
      const p01 = this.p01[k] as number;
      const p11 = this.p11[k] as number;
      this.x[k] = (this.x[k] as number) + (this.v[k] as number);
      this.p00[k] = (this.p00[k] as number) + 2 * p01 + p11 + (this.noise.position * s) ** 2;
      this.p01[k] = p01 + p11;
      this.p11[k] = p11 + (this.noise.velocity * s) ** 2;
    }
  }

  /** Corrects the estimate with a box observed in the current frame. */
  update(observed: NormBox, trust = 1): void {
    const z = measurement(observed);
    for (let k = 0; k < 4; k++) {
      const r = (this.noise.position * this.side(k)) ** 2 / trust;
      const p00 = this.p00[k] as number;
      const p01 = this.p01[k] as number;
      const gainX = p00 / (p00 + r);
      const gainV = p01 / (p00 + r);
      const residual = (z[k] as number) - (this.x[k] as number);
      this.x[k] = (this.x[k] as number) + gainX * residual;
      this.v[k] = (this.v[k] as number) + gainV * residual;
      this.p00[k] = (1 - gainX) * p00;
      this.p01[k] = (1 - gainX) * p01;
      this.p11[k] = (this.p11[k] as number) - gainV * p01;
    }
  }

  /** The estimated box now. */
  box(): NormBox {
    const w = Math.max(MIN_SIDE, this.x[2] as number);
    const h = Math.max(MIN_SIDE, this.x[3] as number);
    return { x: (this.x[0] as number) - w / 2, y: (this.x[1] as number) - h / 2, w, h };
  }

  /**
   * How far (one standard deviation) a box measured now may fall from the predicted centre, along
   * x and y: the prediction's uncertainty plus the measurement's. Small for a steady track, wide
   * for a new one or one that has missed frames.
   */
  centreSpread(): { x: number; y: number } {
    const box = this.box();
    const spread = (k: number) =>
      Math.sqrt((this.p00[k] as number) + (this.noise.position * this.scale(k, box)) ** 2);
    return { x: spread(0), y: spread(1) };
  }

  /** The estimated velocity of (cx, cy, w, h) per frame. */
  velocity(): [number, number, number, number] {
    return [this.v[0] as number, this.v[1] as number, this.v[2] as number, this.v[3] as number];
  }

  private scale(k: number, box: NormBox): number {
    return k % 2 === 0 ? box.w : box.h;
  }

  /** scale(k, this.box()) without making the box (called per track and frame). */
  private side(k: number): number {
    return Math.max(MIN_SIDE, (k % 2 === 0 ? this.x[2] : this.x[3]) as number);
  }
}

function measurement(b: NormBox): [number, number, number, number] {
  return [b.x + b.w / 2, b.y + b.h / 2, b.w, b.h];
}
