/**
 * The tracking bench's harder scenes (hard-scenes.ts): LabelDesk's tracker beside SORT (at its best
 * of a few settings, per scene kind and rate) and ByteTrack, all run on the same detections and
 * scored as TrackEval scores them. One table per scene kind and sampling rate, with the goal of
 * issue 28: IDF1 and HOTA at least the better baseline's, ID switches at most SORT's, tracks at
 * most 1.3× the true objects.
 */
import { assignTracks } from '../../electron/core/tracking/assign-tracks.js';
import { fmt, printFigures } from '../report.js';
import { byteSettings, byteTracks } from './baselines/bytetrack-baseline.js';
import { SORT_SETTINGS, sortTracks } from './baselines/sort-baseline.js';
import {
  HARD_KINDS,
  makeHardScene,
  SAMPLE_RATES,
  type HardKind,
  type HardScene,
} from './hard-scenes.js';
import { combineScores, scoreIds, type TrackingScore } from './mot-metrics.js';

/**
 * The seeds the tracker was tuned on, seeds it was not first tuned on (its last cues were found
 * on them), and seeds no tuning looked at (scored once after): a cell counts as met only when it
 * holds on all three (a tracker tuned to three clips is not what issue 28 asks).
 */
export const SEED_SETS = {
  bench: [11, 12, 13],
  'held-out': [21, 22, 23],
  unseen: [31, 32, 33],
} as const;
export type SeedSet = keyof typeof SEED_SETS;
export const SEED_SET_NAMES = Object.keys(SEED_SETS) as SeedSet[];

type Ids = (number | null)[];
type Run = (scene: HardScene) => Ids;

export const labelDesk: Run = (s) => assignTracks(s.detections.map((d) => ({ ...d, fps: s.fps })));

export interface Cell {
  kind: HardKind;
  fps: number;
  seeds: SeedSet;
  labelDesk: TrackingScore;
  sort: TrackingScore;
  byteTrack: TrackingScore;
  objects: number;
}

const scenesOf = (kind: HardKind, fps: number, seeds: SeedSet) =>
  SEED_SETS[seeds].map((seed) => makeHardScene(kind, fps, seed * 100 + fps));

const scoreAll = (scenes: readonly HardScene[], run: Run) =>
  combineScores(scenes.map((s) => scoreIds(s.truth, s.detections, run(s))));

/** A tracker's score on a cell's clips. */
export const scoreRun = (kind: HardKind, fps: number, seeds: SeedSet, run: Run): TrackingScore =>
  scoreAll(scenesOf(kind, fps, seeds), run);

/** SORT at the best of its settings (by IDF1 + HOTA) and ByteTrack at the better of two. */
export function scoreBaselines(
  kind: HardKind,
  fps: number,
  seeds: SeedSet,
): Omit<Cell, 'labelDesk'> {
  const scenes = scenesOf(kind, fps, seeds);
  const best = (all: TrackingScore[]) =>
    all.reduce((a, b) => (b.idf1 + b.hota > a.idf1 + a.hota ? b : a));
  return {
    kind,
    fps,
    seeds,
    sort: best(SORT_SETTINGS.map((o) => scoreAll(scenes, (s) => sortTracks(s.detections, o)))),
    byteTrack: best(
      [0.5, 0.6].map((high) =>
        scoreAll(scenes, (s) => byteTracks(s.detections, byteSettings(s.fps, high))),
      ),
    ),
    objects: scenes.reduce((n, s) => n + new Set(s.truth.map((t) => t.id)).size, 0),
  };
}

export function scoreCell(
  kind: HardKind,
  fps: number,
  seeds: SeedSet,
  ours: Run = labelDesk,
): Cell {
  return { ...scoreBaselines(kind, fps, seeds), labelDesk: scoreRun(kind, fps, seeds, ours) };
}

export function goalsOf(c: Cell): { idf1: boolean; hota: boolean; idsw: boolean; tracks: boolean } {
  return {
    idf1: c.labelDesk.idf1 >= Math.max(c.sort.idf1, c.byteTrack.idf1),
    hota: c.labelDesk.hota >= Math.max(c.sort.hota, c.byteTrack.hota),
    idsw: c.labelDesk.idsw <= c.sort.idsw,
    tracks: c.labelDesk.tracks <= 1.3 * c.objects,
  };
}

const line = (s: TrackingScore, objects: number) =>
  `HOTA ${fmt(s.hota * 100)}, IDF1 ${fmt(s.idf1 * 100)}, MOTA ${fmt(s.mota * 100)}, ID switches ${s.idsw}, ${s.tracks} tracks / ${objects} objects (DetA ${fmt(s.detA * 100)}, AssA ${fmt(s.assA * 100)})`;

/** Every cell on each set of seeds in turn; a cell is met when met on every set. */
export function benchHardScenes(): void {
  const missed = new Set<string>();
  for (const seeds of SEED_SET_NAMES) {
    for (const kind of HARD_KINDS) {
      for (const fps of SAMPLE_RATES) {
        const c = printCell(kind, fps, seeds);
        if (Object.values(goalsOf(c)).includes(false)) missed.add(`${kind} at ${fps} fps`);
      }
    }
  }
  const cells = HARD_KINDS.length * SAMPLE_RATES.length;
  printFigures('Tracking, harder scenes: cells met on every seed set', [
    {
      name: `cells meeting every goal on ${SEED_SET_NAMES.join(' and ')} seeds`,
      value: `${cells - missed.size} of ${cells}${missed.size > 0 ? ` (missed: ${[...missed].join(', ')})` : ''}`,
      goal: `${cells} of ${cells}`,
      met: missed.size === 0,
    },
  ]);
}

function printCell(kind: HardKind, fps: number, seeds: SeedSet): Cell {
  const c = scoreCell(kind, fps, seeds);
  const met = goalsOf(c);
  printFigures(
    `Tracking, harder scenes: ${kind} at ${fps} fps, ${seeds} seeds ${SEED_SETS[seeds].join('/')} (${SEED_SETS[seeds].length} clips of 30 s, ${c.labelDesk.gt} true boxes)`,
    [
      { name: 'SORT (best of its settings)', value: line(c.sort, c.objects) },
      { name: 'ByteTrack', value: line(c.byteTrack, c.objects) },
      { name: 'LabelDesk tracker', value: line(c.labelDesk, c.objects) },
      {
        name: 'IDF1 vs the better baseline',
        value: fmt((c.labelDesk.idf1 - Math.max(c.sort.idf1, c.byteTrack.idf1)) * 100),
        goal: '≥ 0',
        met: met.idf1,
      },
      {
        name: 'HOTA vs the better baseline',
        value: fmt((c.labelDesk.hota - Math.max(c.sort.hota, c.byteTrack.hota)) * 100),
        goal: '≥ 0',
        met: met.hota,
      },
      {
        name: 'ID switches vs SORT',
        value: `${c.labelDesk.idsw} vs ${c.sort.idsw}`,
        goal: '≤ SORT',
        met: met.idsw,
      },
      {
        name: 'tracks ÷ true objects',
        value: fmt(c.labelDesk.tracks / c.objects, 2),
        goal: '≤ 1.3',
        met: met.tracks,
      },
    ],
  );
  return c;
}
