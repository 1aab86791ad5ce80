/**
 * Dense matrix arithmetic for the baselines' Kalman filters (7×7 and 8×8: no library needed),
 * row-major in typed arrays.
 */
export interface Mat {
  r: number;
  c: number;
  d: number[];
}

export const zeros = (r: number, c: number): Mat => ({ r, c, d: new Array<number>(r * c).fill(0) });

export const diag = (values: readonly number[]): Mat => {
  const n = values.length;
  const m = zeros(n, n);
  values.forEach((v, i) => (m.d[i * n + i] = v));
  return m;
};

export const at = (m: Mat, i: number, j: number): number => m.d[i * m.c + j] as number;

export function set(m: Mat, i: number, j: number, v: number): void {
  m.d[i * m.c + j] = v;
}

export function mul(a: Mat, b: Mat): Mat {
  const out = zeros(a.r, b.c);
  const { d } = out;
  for (let i = 0; i < a.r; i++) {
    for (let p = 0; p < a.c; p++) {
      const v = a.d[i * a.c + p] as number;
      if (v === 0) continue;
      for (let j = 0; j < b.c; j++)
        d[i * b.c + j] = (d[i * b.c + j] as number) + v * (b.d[p * b.c + j] as number);
    }
  }
  return out;
}

export function transpose(m: Mat): Mat {
  const out = zeros(m.c, m.r);
  for (let i = 0; i < m.r; i++)
    for (let j = 0; j < m.c; j++) out.d[j * m.r + i] = m.d[i * m.c + j] as number;
  return out;
}

export function add(a: Mat, b: Mat, sign = 1): Mat {
  const out = zeros(a.r, a.c);
  for (let k = 0; k < a.d.length; k++) out.d[k] = (a.d[k] as number) + sign * (b.d[k] as number);
  return out;
}

/** Gauss–Jordan inverse with partial pivoting (an innovation covariance: small, positive definite). */
export function inverse(m: Mat): Mat {
  const n = m.r;
  const w = 2 * n;
  const a = new Float64Array(n * w);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) a[i * w + j] = m.d[i * n + j] as number;
    a[i * w + n + i] = 1;
  }
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++)
      if (Math.abs(a[r * w + col] as number) > Math.abs(a[pivot * w + col] as number)) pivot = r;
    for (let j = 0; j < w; j++) {
      const t = a[col * w + j] as number;
      a[col * w + j] = a[pivot * w + j] as number;
      a[pivot * w + j] = t;
    }
    const p = a[col * w + col] as number;
    for (let j = 0; j < w; j++) a[col * w + j] = (a[col * w + j] as number) / p;
    for (let r = 0; r < n; r++) {
      const f = a[r * w + col] as number;
      if (r === col || f === 0) continue;
      for (let j = 0; j < w; j++)
        a[r * w + j] = (a[r * w + j] as number) - f * (a[col * w + j] as number);
    }
  }
  const out = zeros(n, n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) out.d[i * n + j] = a[i * w + n + j] as number;
  return out;
}

/**
 * A linear Kalman filter: state x (column), covariance P, transition F, measurement H, with the
 * noise matrices supplied per step (SORT's are fixed, ByteTrack's scale with the box's height).
 */
export class LinearKalman {
  private readonly Ft: Mat;
  private readonly Ht: Mat;

  constructor(
    public x: Mat,
    public P: Mat,
    private readonly F: Mat,
    private readonly H: Mat,
  ) {
    this.Ft = transpose(F);
    this.Ht = transpose(H);
  }

  predict(Q: Mat): void {
    this.x = mul(this.F, this.x);
    this.P = add(mul(mul(this.F, this.P), this.Ft), Q);
  }

  update(z: readonly number[], R: Mat): void {
    const PHt = mul(this.P, this.Ht);
    const S = add(mul(this.H, PHt), R);
    const K = mul(PHt, inverse(S));
    const y = add({ r: z.length, c: 1, d: [...z] }, mul(this.H, this.x), -1);
    this.x = add(this.x, mul(K, y));
    this.P = add(this.P, mul(mul(K, this.H), this.P), -1);
  }

  get(i: number): number {
    return this.x.d[i] as number;
  }

  setState(i: number, v: number): void {
    this.x.d[i] = v;
  }
}

export const column = (values: readonly number[]): Mat => ({
  r: values.length,
  c: 1,
  d: [...values],
});

/**
 * The constant-velocity model on n measured values, the first `moving` of them with a velocity in
 * the state (after the n values): F moves each by its velocity, H reads the n values.
 */
export function constantVelocity(n: number, moving = n): { F: Mat; H: Mat } {
  const F = diag(new Array<number>(n + moving).fill(1));
  const H = zeros(n, n + moving);
  for (let i = 0; i < n; i++) {
    if (i < moving) set(F, i, i + n, 1);
    set(H, i, i, 1);
  }
  return { F, H };
}
