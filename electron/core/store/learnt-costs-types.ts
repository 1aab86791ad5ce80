/** Frame costs learnt per service and solution when the catalog does not publish them. */
export type CostKind = 'image' | 'videoFrame';

/** A learnt cost per medium; null while it is not known. */
export type LearntCosts = Record<CostKind, number | null>;

export interface LearntCostsApi {
  get(serviceUrl: string, solution: string): LearntCosts;
  set(serviceUrl: string, solution: string, kind: CostKind, frames: number, at: number): void;
  /** Forgets what was learnt for this service and solution (learnt again from the next file). */
  forget(serviceUrl: string, solution: string): void;
}
