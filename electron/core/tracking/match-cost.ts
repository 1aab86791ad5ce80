/**
 * How well a track's predicted box fits a detection, as a cost for the assignment: 1 − IoU when
 * they overlap enough; otherwise (a fast or small object can leave its prediction without
 * overlapping it) 1 + the distance between their centres measured in the prediction's own
 * uncertainty, as a fraction of the gate, so any real overlap beats any near miss. Pairs beyond
 * the gate, or of very different sizes, are not allowed at all.
 */
import { iou, type NormBox } from '../../shared/geometry/box-math.js';

export interface MatchGate {
  /** Overlap from which a pair counts as overlapping. */
  minIou: number;
  /** Furthest centre distance, in standard deviations of the prediction, for a pair that does not overlap. */
  maxCentreDistance: number;
  /** Largest ratio between the two boxes' widths, or heights. */
  maxSizeRatio: number;
  /**
   * Cost added per unit of |ln(width ratio)| + |ln(height ratio)| to an overlapping pair: where
   * two objects overlap their predictions fit both boxes, and their sizes tell them apart.
   */
  sizeWeight?: number;
  /**
   * The same for a near miss (no overlap): at 1 fps a second's jump leaves the prediction loose,
   * and the size a box keeps tells which of two crossing walkers it is.
   */
  farSizeWeight?: number;
}

export const DEFAULT_GATE: MatchGate = { minIou: 0.1, maxCentreDistance: 3, maxSizeRatio: 2 };

/** Costs at or above this are refused pairs; the assignment still sees a finite number. */
export const REFUSED = 1e6;

export function matchCost(
  predicted: NormBox,
  spread: { x: number; y: number },
  detected: NormBox,
  gate: MatchGate,
): number {
  const overlap = iou(predicted, detected);
  if (overlap >= gate.minIou) {
    const w = gate.sizeWeight ?? 0;
    return w === 0 ? 1 - overlap : 1 - overlap + w * sizeChange(predicted, detected);
  }
  const ratioW = predicted.w / detected.w;
  const ratioH = predicted.h / detected.h;
  const r = gate.maxSizeRatio;
  if (ratioW > r || ratioW < 1 / r || ratioH > r || ratioH < 1 / r) return REFUSED;
  const dx = (predicted.x + predicted.w / 2 - (detected.x + detected.w / 2)) / spread.x;
  const dy = (predicted.y + predicted.h / 2 - (detected.y + detected.h / 2)) / spread.y;
  const distance = Math.hypot(dx, dy);
  if (distance > gate.maxCentreDistance) return REFUSED;
  const far = gate.farSizeWeight ?? 0;
  return (
    1 + distance / gate.maxCentreDistance + (far === 0 ? 0 : far * sizeChange(predicted, detected))
  );
}

function sizeChange(a: NormBox, b: NormBox): number {
  return Math.abs(Math.log(a.w / b.w)) + Math.abs(Math.log(a.h / b.h));
}
