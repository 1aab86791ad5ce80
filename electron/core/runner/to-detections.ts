import type { DetectionInput } from '../store/store-types.js';
import type { WireDetection } from './service-port.js';

export function toDetectionInputs(
  detections: readonly WireDetection[],
  frameIndex: number,
  timeMs: number | null,
): DetectionInput[] {
  return detections.map((d) => ({
    frameIndex,
    timeMs,
    label: d.label,
    classId: d.classId ?? null,
    // A detection without a score is stored without one (issue 24: it was stored as 1); the
    // adapter notes that it had none, and every score filter keeps it.
    score: d.score ?? null,
    bbox: d.bbox,
    origin: 'model',
    review: 'pending',
  }));
}
