/**
 * How far two members agree on the files both reviewed blind (overlap files): per pair of members
 * and per class, their boxes matched at IoU ≥ 0.5 by the evaluation engine's matching
 * (match-in-class.ts, one member's boxes standing as the truth, the other's as the model's), F1
 * (2·matched / (boxes of one + boxes of the other)) and the mean IoU of the matched pairs. The
 * boxes neither matched are the disagreements a lead settles. Pure.
 */
import { iou, type NormBox } from '../../shared/geometry/box-math.js';
import { matchInClass } from '../evaluation/match-in-class.js';
import type { TruthBoxOf } from './member-versions.js';

export interface AgreementCounts {
  /** Boxes of the pair's first member, of the second, matched pairs, and their IoUs summed. */
  a: number;
  b: number;
  matched: number;
  iouSum: number;
}

export interface AgreementFigures {
  a: number;
  b: number;
  matched: number;
  /** null when neither member has a box. */
  f1: number | null;
  /** null when nothing matched. */
  meanIou: number | null;
}

export interface PairAgreement {
  /** The two members, in name order. */
  members: [string, string];
  files: number;
  overall: AgreementFigures;
  classes: ({ label: string } & AgreementFigures)[];
}

export interface UnmatchedBox extends TruthBoxOf {
  member: string;
  /** The member whose version has no box of this class overlapping it enough. */
  against: string;
}

export interface FileAgreement {
  contentHash: string;
  members: string[];
  /** Over every pair of its members. */
  overall: AgreementFigures;
  unmatched: UnmatchedBox[];
}

export const figuresOf = (c: AgreementCounts): AgreementFigures => ({
  a: c.a,
  b: c.b,
  matched: c.matched,
  f1: c.a + c.b > 0 ? (2 * c.matched) / (c.a + c.b) : null,
  meanIou: c.matched > 0 ? c.iouSum / c.matched : null,
});

const zero = (): AgreementCounts => ({ a: 0, b: 0, matched: 0, iouSum: 0 });

function add(into: AgreementCounts, c: AgreementCounts): void {
  into.a += c.a;
  into.b += c.b;
  into.matched += c.matched;
  into.iouSum += c.iouSum;
}

function groups(boxes: readonly TruthBoxOf[]): Map<string, TruthBoxOf[]> {
  const out = new Map<string, TruthBoxOf[]>();
  for (const b of boxes) {
    const k = `${b.solution}\u0000${b.frameIndex}\u0000${b.label}`;
    const list = out.get(k) ?? [];
    list.push(b);
    out.set(k, list);
  }
  return out;
}

/** Two versions of one file: counts per class, and each side's boxes the other lacks. */
export function compareVersions(
  a: readonly TruthBoxOf[],
  b: readonly TruthBoxOf[],
): { byClass: Map<string, AgreementCounts>; aOnly: TruthBoxOf[]; bOnly: TruthBoxOf[] } {
  const ga = groups(a);
  const gb = groups(b);
  const byClass = new Map<string, AgreementCounts>();
  const aOnly: TruthBoxOf[] = [];
  const bOnly: TruthBoxOf[] = [];
  for (const key of new Set([...ga.keys(), ...gb.keys()])) {
    const ta = ga.get(key) ?? [];
    const tb = gb.get(key) ?? [];
    const label = (ta[0] ?? tb[0])?.label ?? '';
    const m = matchInClass(
      ta.map((t) => ({ bbox: t.bbox })),
      tb.map((t) => t.bbox),
    );
    const counts = byClass.get(label) ?? zero();
    const usedA = new Set<number>();
    tb.forEach((box, d) => {
      const g = m.truthAt50[d] ?? -1;
      if (g < 0) {
        bOnly.push(box);
        return;
      }
      usedA.add(g);
      counts.matched++;
      counts.iouSum += iou(box.bbox, (ta[g] as TruthBoxOf).bbox as NormBox);
    });
    ta.forEach((box, g) => {
      if (!usedA.has(g)) aOnly.push(box);
    });
    counts.a += ta.length;
    counts.b += tb.length;
    byClass.set(label, counts);
  }
  return { byClass, aOnly, bOnly };
}

/** Agreement over overlap files: `versions` holds each file's members' versions (two or more). */
export function teamAgreement(
  files: readonly { contentHash: string; versions: ReadonlyMap<string, readonly TruthBoxOf[]> }[],
): { pairs: PairAgreement[]; files: FileAgreement[] } {
  const pairs = new Map<
    string,
    { members: [string, string]; files: number; byClass: Map<string, AgreementCounts> }
  >();
  const perFile: FileAgreement[] = [];
  for (const f of files) {
    const members = [...f.versions.keys()].sort();
    const fileCounts = zero();
    const unmatched: UnmatchedBox[] = [];
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) {
        const [ma, mb] = [members[i] as string, members[j] as string];
        const cmp = compareVersions(f.versions.get(ma) ?? [], f.versions.get(mb) ?? []);
        const key = `${ma}\u0000${mb}`;
        const pair = pairs.get(key) ?? { members: [ma, mb], files: 0, byClass: new Map() };
        pair.files++;
        for (const [label, c] of cmp.byClass) {
          const into = pair.byClass.get(label) ?? zero();
          add(into, c);
          pair.byClass.set(label, into);
          add(fileCounts, c);
        }
        pairs.set(key, pair);
        unmatched.push(
          ...cmp.aOnly.map((b) => ({ ...b, member: ma, against: mb })),
          ...cmp.bOnly.map((b) => ({ ...b, member: mb, against: ma })),
        );
      }
    }
    perFile.push({
      contentHash: f.contentHash,
      members,
      overall: figuresOf(fileCounts),
      unmatched,
    });
  }
  return {
    pairs: [...pairs.values()]
      .sort((x, y) => (x.members.join() < y.members.join() ? -1 : 1))
      .map((p) => {
        const overall = zero();
        for (const c of p.byClass.values()) add(overall, c);
        return {
          members: p.members,
          files: p.files,
          overall: figuresOf(overall),
          classes: [...p.byClass]
            .sort((x, y) => (x[0] < y[0] ? -1 : 1))
            .map(([label, c]) => ({ label, ...figuresOf(c) })),
        };
      }),
    files: perFile,
  };
}
