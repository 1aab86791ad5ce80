/**
 * Every desktop reaches the same labels from the same log whatever order the changes reach it
 * in: three libraries make changes of shared boxes (some concurrently, some based on each
 * other's), and fresh libraries receive the whole log in many shuffled orders and page splits.
 */
import { describe, expect, it } from 'vitest';
import { applyPulled } from '../../../../electron/core/team/apply-changes.js';
import type { LibraryStore } from '../../../../electron/core/store/store-types.js';
import type { PulledChange } from '../../../../electron/core/store/team-types.js';
import { teamDesktops } from './team-desktop.js';
import { lcgRandom } from '../../../support/seeded-random.js';

const desktop = teamDesktops();

const anchor = (n: number) => ({
  label: 'person',
  score: 0.9,
  bbox: { x: n / 10, y: 0.1, w: 0.1, h: 0.1 },
});

/** The labels as a person sees them: every correction's state, in a stable order. */
function labels(store: LibraryStore): string[] {
  return store.corrections
    .forContent('h1', 'objects')
    .map(
      (c) =>
        `${c.anchor ? c.anchor.bbox.x.toFixed(1) : 'drawn'} ${c.label ?? '-'} ${c.review} ${c.deleted} ${JSON.stringify(c.bbox)}`,
    )
    .sort();
}

let seq = 0;
/** What the hub would hand out: a desktop's outbox, given hub order and author. */
function publish(store: LibraryStore, member: string): PulledChange[] {
  const out = store.team.outbox(1000).map((c) => ({ ...c, member, seq: ++seq }));
  store.team.markPushed(out.map((c) => c.id));
  return out;
}

describe('shuffled delivery', () => {
  it('converges to one state, conflicts included, whatever the order and paging', async () => {
    const [a, b, c] = [await desktop('a'), await desktop('b'), await desktop('c')];
    const log: PulledChange[] = [];
    const put = (
      s: LibraryStore,
      n: number,
      over: { label?: string; review?: 'accepted' | 'rejected'; deleted?: boolean },
    ) => {
      const existing = s.corrections
        .forContent('h1', 'objects')
        .find((r) => r.anchor?.bbox.x === anchor(n).bbox.x);
      s.corrections.put({
        ...(existing ? { id: existing.id } : {}),
        contentHash: 'h1',
        solution: 'objects',
        frameIndex: 0,
        timeMs: null,
        anchor: anchor(n),
        label: over.label ?? existing?.label ?? null,
        bbox: existing?.bbox ?? null,
        review: over.review ?? existing?.review ?? 'pending',
        deleted: over.deleted ?? existing?.deleted ?? false,
      });
    };
    // Round 1, nobody has seen anyone: box 1 is changed by a and b (a conflict), box 2 by c.
    put(a, 1, { label: 'cat' });
    put(b, 1, { label: 'dog' });
    put(c, 2, { review: 'accepted' });
    b.corrections.put({
      contentHash: 'h1',
      solution: 'objects',
      frameIndex: 0,
      timeMs: null,
      anchor: null,
      label: 'kite',
      bbox: { x: 0.5, y: 0.5, w: 0.1, h: 0.1 },
      review: 'accepted',
      deleted: false,
    });
    for (const [s, m] of [
      [a, 'a'],
      [b, 'b'],
      [c, 'c'],
    ] as const)
      log.push(...publish(s, m));
    // Round 2, c has seen everything and changes box 1 (settling it); a, unaware, changes box 2.
    applyPulled(c, log, 2);
    put(c, 1, { review: 'rejected' });
    put(a, 2, { label: 'bicycle' });
    log.push(...publish(c, 'c'), ...publish(a, 'a'));
    expect(log.length).toBe(6);

    const rand = lcgRandom(7);
    const results = new Set<string>();
    const conflicts = new Set<number>();
    for (let round = 0; round < 12; round++) {
      const fresh = await desktop(`r${round}`);
      const shuffled = [...log].sort(() => rand() - 0.5);
      // Delivered in pages of random size, as a slow, reordering network would.
      for (let i = 0; i < shuffled.length;) {
        const n = 1 + Math.floor(rand() * 3);
        applyPulled(fresh, shuffled.slice(i, i + n), 3);
        i += n;
      }
      results.add(JSON.stringify(labels(fresh)));
      conflicts.add(fresh.team.counts().conflicts);
    }
    // The members themselves, after pulling the whole log, agree with the fresh desktops.
    for (const s of [a, b, c]) {
      applyPulled(s, log, 4);
      results.add(JSON.stringify(labels(s)));
      conflicts.add(s.team.counts().conflicts);
    }
    expect(results.size).toBe(1);
    // Box 1 was settled by c; box 2 was changed by c and a without seeing each other's change.
    expect([...conflicts]).toEqual([1]);
    const state = JSON.parse([...results][0] as string) as string[];
    expect(state.find((l) => l.startsWith('0.1 '))).toMatch(/ rejected /);
    expect(state.some((l) => l.startsWith('drawn kite accepted'))).toBe(true);
    expect(state.length).toBe(3);
  });
});
