/**
 * What blind review costs a pull (issue 26 §3): an annotator reads 50,000 changes of other
 * members through LabelDesk's pull, in a project with the quality tables and no blind file (the
 * policy's one check per query), then with 10 % of the files overlap files (the policy's check of
 * each other member's row: one probe of the hidden changes' list), and what setting the share
 * costs the lead (the list made again over the log), beside the bare read of the same rows (superuser, no row security),
 * all on one real server in one run.
 */
import { randomUUID } from 'node:crypto';
import type { TeamChange } from '../electron/core/store/team-types.js';
import { ensureQuality, setOverlapShare } from '../electron/core/team/hub-quality.js';
import { fmt, printFigures } from './report.js';
import { bareRead, startBenchHub } from './team-hub.js';

const CHANGES = Number(process.env['LABELDESK_BENCH_QUALITY_CHANGES'] ?? 50_000);
const FILES = 5_000;
const PAGE = 5_000;
const ROUNDS = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

function changeOf(i: number): TeamChange {
  const file = `${(i % FILES).toString(16).padStart(8, '0')}${'0'.repeat(56)}`;
  return {
    id: randomUUID(),
    box: `drawn:${i}`,
    contentHash: file,
    solution: 'objects',
    parents: [],
    state: null,
    at: Date.now(),
  };
}

export async function benchTeamQuality(): Promise<void> {
  const hub = await startBenchHub();
  const lead = hub.lead.client();
  const ann = (await hub.addMember('ann')).client();
  try {
    await ensureQuality(lead);
    for (let i = 0; i < CHANGES; i += 1000) {
      await lead.push(
        Array.from({ length: Math.min(1000, CHANGES - i) }, (_, k) => changeOf(i + k)),
      );
    }
    const pullAll = async () => {
      const t = performance.now();
      let n = 0;
      for (let cursor = 0; ;) {
        const page = await ann.pull(cursor, PAGE);
        n += page.length;
        if (page.length < PAGE) break;
        cursor = page[page.length - 1]?.seq ?? cursor;
      }
      return { ms: performance.now() - t, n };
    };
    const bare: number[] = [];
    const open: number[] = [];
    const blind: number[] = [];
    // Setting the share re-lists the hidden changes (quality_hidden) over the whole log.
    const share: number[] = [];
    let seen = { open: 0, blind: 0 };
    for (let r = 0; r < ROUNDS; r++) {
      bare.push((await bareRead(hub.sql, 0)).ms);
      await setOverlapShare(lead, 0);
      const o = await pullAll();
      open.push(o.ms);
      const t = performance.now();
      await setOverlapShare(lead, 0.1);
      share.push(performance.now() - t);
      const b = await pullAll();
      blind.push(b.ms);
      seen = { open: o.n, blind: b.n };
    }
    const ratio = (xs: number[]) => fmt(median(xs) / median(bare), 2);
    printFigures('team-quality (real PostgreSQL hub, started by the bench)', [
      {
        name: `bare read of ${CHANGES} changes (superuser, one query)`,
        value: `${fmt(median(bare), 0)} ms`,
      },
      {
        name: `annotator's pull, quality tables, no blind file (${seen.open} rows)`,
        value: `${fmt(median(open), 0)} ms = ${ratio(open)}× bare`,
      },
      {
        name: `annotator's pull, overlap 10 % (${seen.blind} rows visible)`,
        value: `${fmt(median(blind), 0)} ms = ${ratio(blind)}× bare`,
      },
      {
        name: `lead sets the overlap to 10 % (hidden changes listed again over ${CHANGES})`,
        value: `${fmt(median(share), 0)} ms = ${ratio(share)}× bare`,
      },
    ]);
  } finally {
    await ann.close();
    await lead.close();
    await hub.close();
  }
}
