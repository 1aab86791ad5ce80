/**
 * The mistakes worth a look, kept to a bounded list per kind so a library with a million of them
 * still answers quickly: the most confident wrong boxes first, misses in file order.
 */
import type { Mistake, MistakeKind } from './evaluation-types.js';

const KINDS: readonly MistakeKind[] = ['confusion', 'false-positive', 'miss'];

const byConfidence = (a: Mistake, b: Mistake) => (b.score ?? 0) - (a.score ?? 0);

export class MistakeList {
  private readonly lists = new Map<MistakeKind, Mistake[]>(KINDS.map((k) => [k, []]));
  readonly totals: Record<MistakeKind, number> = { confusion: 0, 'false-positive': 0, miss: 0 };

  constructor(private readonly limit: number) {}

  add(m: Mistake): void {
    this.totals[m.kind]++;
    const list = this.lists.get(m.kind) as Mistake[];
    if (m.kind === 'miss') {
      if (list.length < this.limit) list.push(m);
      return;
    }
    list.push(m);
    // Trimmed now and then rather than kept sorted: amortised, and a stable sort keeps file order on ties.
    if (list.length >= this.limit * 2) this.trim(list);
  }

  list(): Mistake[] {
    return KINDS.flatMap((k) => {
      const list = this.lists.get(k) as Mistake[];
      if (k !== 'miss') this.trim(list);
      return list;
    });
  }

  private trim(list: Mistake[]): void {
    list.sort(byConfidence);
    list.length = Math.min(list.length, this.limit);
  }
}
