/**
 * A conflict a person settles: one change based on every version, which every desktop applies
 * the same way whatever order the log reaches it in; who may settle which box.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LibraryStore } from '../../../../electron/core/store/store-types.js';
import type { PulledChange, TeamLinkRow } from '../../../../electron/core/store/team-types.js';
import { applyPulled } from '../../../../electron/core/team/apply-changes.js';
import {
  listConflicts,
  resolveConflicts,
} from '../../../../electron/core/team/resolve-conflicts.js';
import { storeFixture, type StoreFixture } from '../store/store-fixture.js';
import { lcgRandom } from '../../../support/seeded-random.js';

const fixtures: StoreFixture[] = [];
afterEach(async () => {
  for (const f of fixtures.splice(0)) await f.done();
});

async function desktop(member: string, role: 'lead' | 'annotator'): Promise<LibraryStore> {
  const f = await storeFixture();
  fixtures.push(f);
  f.store.team.setLink({ hub: 'postgresql://x@h/db', project: 'p', folder: '/f', member, role }, 1);
  return f.store;
}
const linkOf = (s: LibraryStore) => s.team.link() as TeamLinkRow;

const anchor = (n: number) => ({
  label: 'person',
  score: 0.9,
  bbox: { x: n / 10, y: 0.1, w: 0.1, h: 0.1 },
});

function relabel(s: LibraryStore, n: number, label: string): void {
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
    label,
    bbox: null,
    review: 'accepted',
    deleted: false,
  });
}

const labelOf = (s: LibraryStore, n: number) =>
  s.corrections.forContent('h1', 'objects').find((r) => r.anchor?.bbox.x === anchor(n).bbox.x)
    ?.label;

let seq = 0;
function publish(store: LibraryStore, member: string): PulledChange[] {
  const out = store.team.outbox(1000).map((c) => ({ ...c, member, seq: ++seq }));
  store.team.markPushed(out.map((c) => c.id));
  return out;
}

describe('settling conflicts', () => {
  it('keeps the version a person names, on every desktop, whatever the delivery order', async () => {
    const lead = await desktop('lead', 'annotator');
    const ann = await desktop('ann', 'annotator');
    const other = await desktop('other', 'annotator');
    // Boxes 1 and 2: lead and ann change both without seeing each other's change.
    relabel(lead, 1, 'cat');
    relabel(ann, 1, 'dog');
    relabel(lead, 2, 'car');
    relabel(ann, 2, 'bus');
    const log = [...publish(lead, 'lead'), ...publish(ann, 'ann')];
    for (const s of [lead, ann, other]) applyPulled(s, log, 2);
    expect(ann.team.counts().conflicts).toBe(2);

    const conflicts = listConflicts(ann, linkOf(ann));
    expect(conflicts).toHaveLength(2);
    const [c1, c2] = conflicts.sort((a, b) =>
      (a.versions[0]?.label ?? '') < (b.versions[0]?.label ?? '') ? 1 : -1,
    );
    expect(c1?.versions.map((v) => [v.member, v.label, v.mine]).sort()).toEqual([
      ['ann', 'dog', true],
      ['lead', 'cat', false],
    ]);
    expect(c1?.path).toBeNull();
    // Someone with no version of the box may not settle it; an unknown id is said so.
    expect(listConflicts(other, linkOf(other)).every((c) => !c.canResolve)).toBe(true);
    const refused = resolveConflicts(
      other,
      linkOf(other),
      { ids: [c1!.id, 'nope'] },
      'mine',
      () => 3,
    );
    expect(refused.resolved).toEqual([]);
    expect(refused.skipped.map((s) => s.id)).toEqual([c1!.id, 'nope']);

    // ann keeps the lead's version of box 1 (theirs) and their own of box 2.
    expect(
      resolveConflicts(ann, linkOf(ann), { ids: [c1!.id] }, 'theirs', () => 3).resolved,
    ).toEqual([{ id: c1!.id, kept: expect.any(String) as string, member: 'lead' }]);
    expect(
      resolveConflicts(ann, linkOf(ann), { ids: [c2!.id] }, 'ann', () => 3).resolved,
    ).toHaveLength(1);
    expect(labelOf(ann, 1)).toBe('cat');
    expect(labelOf(ann, 2)).toBe('bus');
    expect(ann.team.counts().conflicts).toBe(0);
    log.push(...publish(ann, 'ann'));
    expect(log).toHaveLength(6);

    const rand = lcgRandom(11);
    const seen = new Set<string>();
    for (let round = 0; round < 10; round++) {
      const fresh = await desktop(`r${round}`, 'annotator');
      const shuffled = [...log].sort(() => rand() - 0.5);
      for (let i = 0; i < shuffled.length;) {
        const n = 1 + Math.floor(rand() * 3);
        applyPulled(fresh, shuffled.slice(i, i + n), 4);
        i += n;
      }
      seen.add(`${labelOf(fresh, 1)} ${labelOf(fresh, 2)} ${fresh.team.counts().conflicts}`);
    }
    for (const s of [lead, other]) {
      applyPulled(s, log.slice(4), 5);
      seen.add(`${labelOf(s, 1)} ${labelOf(s, 2)} ${s.team.counts().conflicts}`);
    }
    expect([...seen]).toEqual(['cat bus 0']);
  });

  it('lets a lead settle every conflict at once, naming a member', async () => {
    const lead = await desktop('lead', 'lead');
    const a = await desktop('a', 'annotator');
    const b = await desktop('b', 'annotator');
    relabel(a, 1, 'cat');
    relabel(b, 1, 'dog');
    relabel(a, 2, 'car');
    relabel(b, 2, 'bus');
    relabel(a, 3, 'cup');
    const log = [...publish(a, 'a'), ...publish(b, 'b')];
    applyPulled(lead, log, 2);
    const all = listConflicts(lead, linkOf(lead));
    expect(all.map((c) => c.canResolve)).toEqual([true, true]);
    // "mine" names nothing of the lead's: both are skipped, with the reason.
    expect(resolveConflicts(lead, linkOf(lead), 'all', 'mine', () => 3).skipped).toHaveLength(2);
    const r = resolveConflicts(lead, linkOf(lead), 'all', 'b', () => 3);
    expect(r.resolved.map((x) => x.member)).toEqual(['b', 'b']);
    expect([labelOf(lead, 1), labelOf(lead, 2), labelOf(lead, 3)]).toEqual(['dog', 'bus', 'cup']);
    expect(lead.team.counts()).toEqual({ pendingPush: 2, conflicts: 0 });
    // The others apply the lead's settlement from the log.
    const settled = publish(lead, 'lead');
    for (const s of [a, b]) {
      applyPulled(s, [...log, ...settled], 4);
      expect([labelOf(s, 1), labelOf(s, 2), s.team.counts().conflicts]).toEqual(['dog', 'bus', 0]);
    }
  });

  it('names a keyframe conflict by its clip frame, as a keyframe, not by the wire form', async () => {
    const lead = await desktop('lead', 'annotator');
    const ann = await desktop('ann', 'annotator');
    const key = (s: LibraryStore, label: string, id?: number) =>
      s.corrections.put({
        ...(id === undefined ? {} : { id }),
        contentHash: 'h1',
        solution: 'objects',
        frameIndex: 44,
        keyframe: true,
        timeMs: 1467,
        anchor: null,
        label,
        bbox: { x: 0.2, y: 0.2, w: 0.1, h: 0.1 },
        review: 'accepted',
        deleted: false,
      });
    key(lead, 'person');
    applyPulled(ann, publish(lead, 'lead'), 1);
    const mine = ann.corrections.forContent('h1', 'objects')[0]!;
    key(lead, 'cyclist', lead.corrections.forContent('h1', 'objects')[0]!.id);
    key(ann, 'rider', mine.id);
    const log = [...publish(lead, 'lead'), ...publish(ann, 'ann')];
    applyPulled(ann, log, 3);
    const [c] = listConflicts(ann, linkOf(ann));
    expect([c?.frameIndex, c?.keyframe]).toEqual([44, true]);
  });
});
