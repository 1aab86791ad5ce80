/**
 * Members' versions and their agreement, as pure functions: a version is the model's answer with
 * only that member's latest change of each box laid over it (deleted and rejected boxes gone), and
 * agreement per pair and class matches boxes at IoU ≥ 0.5 (hand counts in the comments).
 */
import { describe, expect, it } from 'vitest';
import type { LoggedChange } from '../../../../electron/core/team/hub-quality.js';
import { versionOf, type TruthBoxOf } from '../../../../electron/core/team/member-versions.js';
import { teamAgreement } from '../../../../electron/core/team/team-agreement.js';
import type { TeamBoxState } from '../../../../electron/core/store/team-types.js';

const b = (label: string, x: number, y: number, w: number, h: number): TruthBoxOf => ({
  solution: 'objects',
  frameIndex: 0,
  label,
  bbox: { x, y, w, h },
});

const state = (over: Partial<TeamBoxState>): TeamBoxState => ({
  frameIndex: 0,
  timeMs: null,
  anchorLabel: 'cat',
  anchorScore: 0.9,
  anchorX: 0,
  anchorY: 0,
  anchorW: 0.5,
  anchorH: 0.5,
  label: null,
  x: null,
  y: null,
  w: null,
  h: null,
  review: 'pending',
  deleted: 0,
  track: null,
  ...over,
});

let seq = 0;
const change = (member: string, box: string, s: TeamBoxState | null): LoggedChange => ({
  seq: ++seq,
  id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
  member,
  box,
  contentHash: 'h',
  solution: 'objects',
  parents: [],
  state: s,
  at: seq,
});

const answer = {
  analysedWidth: 100,
  analysedHeight: 100,
  model: null,
  detections: [
    {
      frameIndex: 0,
      timeMs: null,
      label: 'cat',
      classId: 0,
      score: 0.9,
      bbox: { x: 0, y: 0, w: 0.5, h: 0.5 },
    },
    {
      frameIndex: 0,
      timeMs: null,
      label: 'dog',
      classId: 1,
      score: 0.8,
      bbox: { x: 0.5, y: 0.5, w: 0.5, h: 0.5 },
    },
  ],
};

describe('member versions', () => {
  it("lays each box's latest change of the member over the model's answer", () => {
    const answers = new Map([['objects', answer]]);
    expect(versionOf(answers, [])).toEqual([
      b('cat', 0, 0, 0.5, 0.5),
      b('dog', 0.5, 0.5, 0.5, 0.5),
    ]);
    const changes = [
      change('ann', 'cat', state({ label: 'lynx' })),
      change('ann', 'cat', state({ label: 'tiger' })),
      change(
        'ann',
        'dog',
        state({ anchorLabel: 'dog', anchorX: 0.5, anchorY: 0.5, review: 'rejected' }),
      ),
      change(
        'ann',
        'drawn:1',
        state({
          anchorLabel: null,
          label: 'bird',
          x: 0.1,
          y: 0.6,
          w: 0.2,
          h: 0.2,
          review: 'accepted',
        }),
      ),
    ];
    expect(versionOf(answers, changes)).toEqual([
      b('tiger', 0, 0, 0.5, 0.5),
      b('bird', 0.1, 0.6, 0.2, 0.2),
    ]);
    // A box brought back to the model's (a null state) shows as the model has it.
    expect(versionOf(answers, [...changes, change('ann', 'cat', null)])[0]).toEqual(
      b('cat', 0, 0, 0.5, 0.5),
    );
  });
});

describe('agreement', () => {
  it('counts matches per pair and class at IoU ≥ 0.5, and lists what neither matched', () => {
    // ann / bob: cat 2 / 1, one matched at IoU .16/.20 = .8 → F1 2·1/3 = 2/3.
    // dog 1 / 1 at IoU .125/.375 = 1/3 < .5 → unmatched, F1 0. Overall 3 / 2, 1 matched → F1 .4.
    // cid has no box: with ann 3 / 0, F1 0; with bob 2 / 0, F1 0.
    const { pairs, files } = teamAgreement([
      {
        contentHash: 'h',
        versions: new Map([
          ['bob', [b('cat', 0, 0, 0.4, 0.5), b('dog', 0.25, 0, 0.5, 0.5)]],
          [
            'ann',
            [b('cat', 0, 0, 0.4, 0.4), b('cat', 0.6, 0.6, 0.2, 0.2), b('dog', 0, 0, 0.5, 0.5)],
          ],
          ['cid', []],
        ]),
      },
    ]);
    expect(pairs.map((p) => p.members.join('&'))).toEqual(['ann&bob', 'ann&cid', 'bob&cid']);
    const [ab, ac] = pairs;
    expect(ab!.overall).toMatchObject({ a: 3, b: 2, matched: 1, f1: 0.4 });
    expect(ab!.overall.meanIou).toBeCloseTo(0.8, 12);
    expect(ab!.classes.find((c) => c.label === 'cat')).toMatchObject({ a: 2, b: 1, matched: 1 });
    expect(ab!.classes.find((c) => c.label === 'cat')!.f1).toBeCloseTo(2 / 3, 12);
    expect(ab!.classes.find((c) => c.label === 'dog')).toMatchObject({
      matched: 0,
      f1: 0,
      meanIou: null,
    });
    expect(ac!.overall).toMatchObject({ a: 3, b: 0, matched: 0, f1: 0, meanIou: null });
    expect(files[0]!.members).toEqual(['ann', 'bob', 'cid']);
    const unmatched = files[0]!.unmatched.filter((u) => u.against === 'bob' || u.member === 'bob');
    expect(
      unmatched
        .filter((u) => u.against !== 'cid' && u.member !== 'cid')
        .map((u) => `${u.member} ${u.label}`)
        .sort(),
    ).toEqual(['ann cat', 'ann dog', 'bob dog']);
  });
});
