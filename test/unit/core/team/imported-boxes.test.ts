/**
 * What an import sets on a box reaches the team (issue 25, migration 17): a change's state
 * carries whether the box is the person's (no model score), a crowd region and the kept COCO
 * fields; a desktop that pulls it writes them to its correction, and a state made before
 * (without those keys) means none. Real libraries, one per member.
 */
import { describe, expect, it } from 'vitest';
import type { CorrectionInput } from '../../../../electron/core/store/store-types.js';
import type { TeamBoxState } from '../../../../electron/core/store/team-types.js';
import { applyPulled } from '../../../../electron/core/team/apply-changes.js';
import { teamDesktops } from './team-desktop.js';

const desktop = teamDesktops();

/** A model box (scored 0.3) an import labelled, as COCO ground truth. */
const imported = (over: Partial<CorrectionInput> = {}): CorrectionInput => ({
  contentHash: 'h1',
  solution: 'objects',
  frameIndex: 0,
  timeMs: null,
  anchor: { label: 'person', score: 0.3, bbox: { x: 0.1, y: 0.1, w: 0.2, h: 0.2 } },
  label: 'person',
  bbox: null,
  review: 'accepted',
  deleted: false,
  personMade: true,
  crowd: true,
  coco: '{"id":7,"area":40}',
  ...over,
});

const asPulled = (store: Awaited<ReturnType<typeof desktop>>, member: string, from = 1) =>
  store.team.outbox(100).map((c, i) => ({ ...c, member, seq: from + i }));

describe('an imported box in a team project', () => {
  it("carries the import's fields in its change, and a pull writes them to the correction", async () => {
    const a = await desktop('a');
    a.corrections.put(imported());
    a.corrections.put(imported({ anchor: null, bbox: { x: 0.5, y: 0.5, w: 0.1, h: 0.1 } }));
    a.corrections.put({ ...imported(), anchor: null, bbox: { x: 0.7, y: 0.1, w: 0.1, h: 0.1 } });
    const drawnByHand = imported({
      anchor: null,
      bbox: { x: 0.3, y: 0.6, w: 0.1, h: 0.1 },
      personMade: false,
      crowd: false,
      coco: null,
    });
    a.corrections.put(drawnByHand);
    const states = a.team.outbox(10).map((c) => c.state);
    expect(states[0]).toMatchObject({
      label: 'person',
      anchorScore: 0.3,
      personMade: 1,
      crowd: 1,
      coco: '{"id":7,"area":40}',
    });
    expect(states[3]).toMatchObject({ personMade: 0, crowd: 0, coco: null });

    const b = await desktop('b');
    applyPulled(b, asPulled(a, 'a'), 2);
    const rows = b.corrections.forContent('h1', 'objects');
    expect(rows).toHaveLength(4);
    const model = rows.find((r) => r.anchor !== null);
    expect(model).toMatchObject({ personMade: true, crowd: true, coco: '{"id":7,"area":40}' });
    expect(rows.filter((r) => r.crowd === true)).toHaveLength(3);
    expect(rows.filter((r) => r.personMade === true)).toHaveLength(3);
    // Nothing applied goes out again, and b's own edit of the box keeps it the person's crowd.
    expect(b.team.outbox(10)).toEqual([]);
    b.corrections.put({ ...imported({ label: 'rider' }), id: model!.id, personMade: undefined });
    expect(b.team.outbox(10)).toMatchObject([
      { state: { label: 'rider', personMade: 1, crowd: 1, coco: '{"id":7,"area":40}' } },
    ]);
  });

  it('reads a state made before the keys existed as a box of the model, not a crowd', async () => {
    const b = await desktop('b');
    b.corrections.put(imported());
    const [mine] = b.team.outbox(1);
    const older = { ...(mine!.state as TeamBoxState), label: 'cyclist' };
    delete older.personMade;
    delete older.crowd;
    delete older.coco;
    applyPulled(
      b,
      [
        {
          ...mine!,
          id: '00000000-0000-4000-8000-000000000009',
          parents: [mine!.id],
          state: older,
          member: 'old',
          seq: 1,
        },
      ],
      2,
    );
    const [row] = b.corrections.forContent('h1', 'objects');
    expect(row).toMatchObject({ label: 'cyclist', personMade: false, crowd: false });
  });

  it('clears the COCO fields an import kept when the version shown has none', async () => {
    const b = await desktop('b');
    b.corrections.put(imported());
    const [mine] = b.team.outbox(1);
    // Another member's edit of the box, made on a desktop whose state has no COCO fields.
    const theirs = { ...(mine!.state as TeamBoxState), label: 'cyclist', coco: null };
    applyPulled(
      b,
      [
        {
          ...mine!,
          id: '00000000-0000-4000-8000-00000000000a',
          parents: [mine!.id],
          state: theirs,
          member: 'c',
          seq: 1,
        },
      ],
      2,
    );
    const [row] = b.corrections.forContent('h1', 'objects');
    expect(row).toMatchObject({ label: 'cyclist', crowd: true });
    expect(row?.coco ?? null).toBeNull();
  });

  it('republishes on rejoining a box an import made the person’s while away, and no other', async () => {
    const a = await desktop('a');
    a.corrections.put(imported({ personMade: false, crowd: false, coco: null }));
    a.corrections.put(imported({ anchor: null, bbox: { x: 0.5, y: 0.5, w: 0.1, h: 0.1 } }));
    // b holds both boxes from states without the new keys (an older desktop's).
    const old = asPulled(a, 'a').map((c) => {
      const s = { ...(c.state as TeamBoxState) };
      delete s.personMade;
      delete s.crowd;
      delete s.coco;
      return { ...c, state: s };
    });
    const b = await desktop('b');
    applyPulled(b, old, 2);
    const [model, drawnBox] = b.corrections.forContent('h1', 'objects');
    b.team.unlink();
    // Away: an import of the same label makes the model box the person's ground truth.
    b.corrections.put({ ...imported(), id: model!.id });
    b.team.setLink(
      { hub: 'postgresql://x@h/db', project: 'p', folder: '/f', member: 'b', role: 'annotator' },
      3,
    );
    const outbox = b.team.outbox(10);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({
      box: old[0]!.box,
      parents: [old[0]!.id],
      state: { personMade: 1, crowd: 1 },
    });
    expect(drawnBox?.personMade).toBe(false);
  });
});
