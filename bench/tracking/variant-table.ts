/**
 * `node build/bench/tracking/variant-table.js [kind…] [--bench|--held-out|--unseen]`: every
 * harder-scene cell (kind × rate) on one line each, on each set of seeds (or only those named),
 * LabelDesk's tracker beside the goals set by SORT and ByteTrack, so a tuning candidate is judged
 * on the whole table at once (a change that fixes one cell often breaks another, and one that
 * fixes the bench's seeds may only fit them). The baselines do not change
 * between candidates: kept in a file under the OS's temp folder, keyed by the scenes' seeds, and
 * recomputed when it is absent.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt } from '../report.js';
import {
  goalsOf,
  labelDesk,
  scoreBaselines,
  scoreRun,
  SEED_SET_NAMES,
  SEED_SETS,
  type Cell,
  type SeedSet,
} from './hard-scenes-bench.js';
import { HARD_KINDS, SAMPLE_RATES, type HardKind } from './hard-scenes.js';

type Baselines = Record<string, Omit<Cell, 'labelDesk'>>;

function baselines(seeds: SeedSet): Baselines {
  const file = join(tmpdir(), `labeldesk-tracking-baselines-v2-${SEED_SETS[seeds].join('-')}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Baselines;
  const all: Baselines = {};
  for (const kind of HARD_KINDS) {
    for (const fps of SAMPLE_RATES) all[`${kind}@${fps}`] = scoreBaselines(kind, fps, seeds);
  }
  writeFileSync(file, JSON.stringify(all));
  return all;
}

const args = process.argv.slice(2);
const kinds = args.filter((k): k is HardKind => HARD_KINDS.includes(k as HardKind));
const sets = SEED_SET_NAMES.filter((s) => args.includes(`--${s}`));
let failed = 0;
for (const seeds of sets.length > 0 ? sets : SEED_SET_NAMES) {
  console.log(`${seeds} seeds (${SEED_SETS[seeds].join(', ')})`);
  const base = baselines(seeds);
  for (const kind of kinds.length > 0 ? kinds : HARD_KINDS) {
    for (const fps of SAMPLE_RATES) {
      const b = base[`${kind}@${fps}`] as Omit<Cell, 'labelDesk'>;
      const c: Cell = { ...b, labelDesk: scoreRun(kind, fps, seeds, labelDesk) };
      const met = goalsOf(c);
      const mark = (ok: boolean) => (ok ? ' ' : '✗');
      failed += Object.values(met).filter((ok) => !ok).length;
      console.log(
        `${kind.padEnd(14)} ${String(fps).padStart(2)} fps  ` +
          `IDF1 ${fmt(c.labelDesk.idf1 * 100)}${mark(met.idf1)}(${fmt(Math.max(c.sort.idf1, c.byteTrack.idf1) * 100)})  ` +
          `HOTA ${fmt(c.labelDesk.hota * 100)}${mark(met.hota)}(${fmt(Math.max(c.sort.hota, c.byteTrack.hota) * 100)})  ` +
          `IDsw ${c.labelDesk.idsw}${mark(met.idsw)}(${c.sort.idsw})  ` +
          `tracks ${c.labelDesk.tracks}${mark(met.tracks)}(≤${fmt(1.3 * c.objects, 0)})  ` +
          `MOTA ${fmt(c.labelDesk.mota * 100)}`,
      );
    }
  }
}
console.log(failed === 0 ? 'every goal met' : `${failed} goal(s) missed`);
