/**
 * One member's version of a file, read from the hub: the model's answer with that member's own
 * changes laid over it by the same merge the review and exports use (merge-corrections.ts), minus
 * deleted and rejected boxes: what the file would show had only this member reviewed it. Pure.
 */
import type { NormBox } from '../../shared/geometry/box-math.js';
import { mergeCorrections } from '../review/merge-corrections.js';
import type { DetectionRow, MergeCorrection } from '../store/store-types.js';
import type { PulledChange as LoggedChange, TeamBoxState } from '../store/team-types.js';
import type { HubAnswer } from './hub-types.js';
import { importedOf } from './imported-state.js';
import { fromWireFrame, toWireFrame } from './keyframe-wire.js';

/** A box a file shows, by solution and frame (as the wire has it: a honeypot's labels are on the hub). */
export interface TruthBoxOf {
  solution: string;
  /** The wire's frame index (keyframe-wire.ts). */
  frameIndex: number;
  label: string;
  bbox: NormBox;
}

/** The model's answers of one content, by solution. */
export type AnswersBySolution = ReadonlyMap<string, HubAnswer['answer']>;

function correctionOf(id: number, s: TeamBoxState): MergeCorrection {
  return {
    id,
    ...fromWireFrame(s.frameIndex),
    timeMs: s.timeMs,
    anchor:
      s.anchorLabel === null
        ? null
        : {
            label: s.anchorLabel,
            score: s.anchorScore,
            bbox: { x: s.anchorX ?? 0, y: s.anchorY ?? 0, w: s.anchorW ?? 0, h: s.anchorH ?? 0 },
          },
    label: s.label,
    bbox: s.x === null ? null : { x: s.x, y: s.y ?? 0, w: s.w ?? 0, h: s.h ?? 0 },
    review: s.review,
    deleted: s.deleted === 1,
    track: s.track,
    ...importedOf(s),
  };
}

/** Per box, its latest change among `changes` (in the hub's order). */
export function latestPerBox(changes: readonly LoggedChange[]): Map<string, LoggedChange> {
  const out = new Map<string, LoggedChange>();
  for (const c of changes) {
    const known = out.get(c.box);
    if (!known || known.seq < c.seq) out.set(c.box, c);
  }
  return out;
}

function modelRows(answer: HubAnswer['answer'] | undefined): DetectionRow[] {
  return (answer?.detections ?? []).map((d, i) => ({
    id: i + 1,
    resultId: 0,
    frameIndex: d.frameIndex,
    timeMs: d.timeMs,
    label: d.label,
    classId: d.classId,
    score: d.score,
    bbox: d.bbox,
    origin: 'model',
    review: d.review ?? 'pending',
  }));
}

/**
 * The boxes a content shows with these changes (one member's, or the settled ones) over the
 * model's answers; each box's latest change counts, a null state being the model's box.
 */
export function versionOf(
  answers: AnswersBySolution,
  changes: readonly LoggedChange[],
): TruthBoxOf[] {
  const bySolution = new Map<string, MergeCorrection[]>();
  let id = 0;
  for (const c of latestPerBox(changes).values()) {
    const list = bySolution.get(c.solution) ?? [];
    if (c.state) list.push(correctionOf(++id, c.state));
    bySolution.set(c.solution, list);
  }
  for (const solution of answers.keys())
    if (!bySolution.has(solution)) bySolution.set(solution, []);
  const out: TruthBoxOf[] = [];
  for (const [solution, corrections] of [...bySolution].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    for (const b of mergeCorrections(modelRows(answers.get(solution)), corrections)) {
      if (b.review === 'rejected') continue;
      out.push({ solution, frameIndex: toWireFrame(b), label: b.label, bbox: b.bbox });
    }
  }
  return out;
}
