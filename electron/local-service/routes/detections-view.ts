import type { EngineDetection } from '../engine/engine-types.js';

const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
const r1 = (v: number) => Math.round(v * 10) / 10;

/** The wire form of a detection: normalised box plus the same box in analysed pixels. */
export function detectionsView(
  detections: readonly EngineDetection[],
  width: number,
  height: number,
) {
  return detections.map((d) => ({
    label: d.label,
    classId: d.classId,
    score: Math.round(d.score * 1e4) / 1e4,
    bbox: { x: r6(d.box.x), y: r6(d.box.y), w: r6(d.box.w), h: r6(d.box.h) },
    bboxPx: {
      x: r1(d.box.x * width),
      y: r1(d.box.y * height),
      w: r1(d.box.w * width),
      h: r1(d.box.h * height),
    },
  }));
}
