/**
 * A uniform grid over normalised picture space: each cell lists the boxes overlapping it, so a
 * pointer finds its box by looking at one cell instead of every box (5,000 boxes: a few dozen
 * candidates per query). Rebuilt whenever the boxes change; building is linear in the boxes.
 */
import type { Box } from '@shared/geometry/box.js';

export interface GridBox {
  bbox: Box;
}

export class HitGrid<T extends GridBox> {
  private readonly cells: number[][];
  readonly size: number;

  constructor(
    readonly boxes: readonly T[],
    /** Cells per side; by default about one box per cell on average, 8–128. */
    size = Math.min(128, Math.max(8, Math.ceil(Math.sqrt(boxes.length)))),
  ) {
    this.size = size;
    this.cells = Array.from({ length: size * size }, () => []);
    boxes.forEach((b, i) => {
      const [c0, r0, c1, r1] = this.span(
        b.bbox.x,
        b.bbox.y,
        b.bbox.x + b.bbox.w,
        b.bbox.y + b.bbox.h,
      );
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) this.cells[r * size + c]?.push(i);
      }
    });
  }

  private cell(v: number): number {
    return Math.min(this.size - 1, Math.max(0, Math.floor(v * this.size)));
  }

  private span(x0: number, y0: number, x1: number, y1: number): [number, number, number, number] {
    return [this.cell(x0), this.cell(y0), this.cell(x1), this.cell(y1)];
  }

  /**
   * The box under a normalised point: of those containing it, the smallest (a small box inside a
   * large one stays reachable). `slop` widens every box by that much (a thin edge is grabbable).
   */
  at(x: number, y: number, slop = 0, accept: (b: T) => boolean = () => true): T | null {
    if (x < -slop || y < -slop || x > 1 + slop || y > 1 + slop) return null;
    let best: T | null = null;
    let bestArea = Infinity;
    // With slop, a box in the next cell may be within reach: look at every cell the slop touches.
    const [c0, r0, c1, r1] = this.span(x - slop, y - slop, x + slop, y + slop);
    const candidates =
      c0 === c1 && r0 === r1
        ? (this.cells[r0 * this.size + c0] ?? [])
        : new Set(this.cellsIn(c0, r0, c1, r1));
    for (const i of candidates) {
      const b = this.boxes[i];
      if (!b) continue;
      const { bbox } = b;
      if (x < bbox.x - slop || x > bbox.x + bbox.w + slop) continue;
      if (y < bbox.y - slop || y > bbox.y + bbox.h + slop) continue;
      const area = bbox.w * bbox.h;
      if (area < bestArea && accept(b)) {
        best = b;
        bestArea = area;
      }
    }
    return best;
  }

  private *cellsIn(c0: number, r0: number, c1: number, r1: number): Generator<number> {
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) yield* this.cells[r * this.size + c] ?? [];
    }
  }

  /** Every box overlapping a normalised rectangle (each once): what is visible, what a lasso takes. */
  within(x0: number, y0: number, x1: number, y1: number): T[] {
    const [c0, r0, c1, r1] = this.span(x0, y0, x1, y1);
    const out: T[] = [];
    for (const i of new Set(this.cellsIn(c0, r0, c1, r1))) {
      const b = this.boxes[i];
      if (!b) continue;
      const { bbox } = b;
      if (bbox.x > x1 || bbox.y > y1 || bbox.x + bbox.w < x0 || bbox.y + bbox.h < y0) continue;
      out.push(b);
    }
    return out;
  }
}
