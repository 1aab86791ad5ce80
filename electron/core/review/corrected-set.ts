/**
 * The corrected set owns its writes: every change of an item's corrected boxes (a person's edit,
 * an undo, an import, a re-analysis, an auto-accept batch or its undo) is written here, with what
 * follows it in the same transaction — the library view's mirror and the item's review priority.
 * The store's repositories only persist the rows they are given. A change from elsewhere (another
 * desktop) is meant to come through here too.
 */
import type { CorrectedSetRows, RawCorrectionsWriter } from '../store/library-database-types.js';
import { asMergeCorrections } from '../store/correction-params.js';
import { StoreError } from '../store/store-error.js';
import type {
  CorrectionInput,
  CorrectionRow,
  CorrectionsBulkWriter,
  DetectionRow,
  FreshContents,
  MediaRecord,
  MergeCorrection,
  ResultInput,
  ResultRow,
  ReviewState,
  RuleAcceptance,
} from '../store/store-types.js';
import { counted, CorrectedMirror, MirrorChanges, mirroredReview } from './corrected-mirror.js';
import { mergeAfterPut } from './merge-after-put.js';
import { mergeCorrections, type MergedBox } from './merge-corrections.js';
import { correctionOf, findBox, planEdit, type ReviewEdit } from './review-edits.js';

/** An item as read once for an edit: its rows, and its boxes merged from them. */
export interface ItemState {
  media: MediaRecord;
  result: ResultRow | undefined;
  content: { contentHash: string; solution: string };
  model: readonly DetectionRow[];
  corrections: readonly MergeCorrection[];
  /** Every box, deleted ones included (flagged). */
  boxes: MergedBox[];
}

export interface EditOutcome {
  stored: CorrectionRow;
  inverse: ReviewEdit;
  /** The item after the edit: its boxes (deleted ones included) and corrections. */
  item: ItemState;
}

export class CorrectedSet {
  readonly mirrors: CorrectedMirror;
  /** Results written through this set so far: rows kept by an analysis are stale once it moves. */
  resultWrites = 0;
  private readonly putTx: (c: CorrectionInput) => CorrectionRow;

  constructor(private readonly db: CorrectedSetRows) {
    this.mirrors = new CorrectedMirror(db);
    this.putTx = (c) =>
      db.transaction(() => {
        const row = db.corrections.put(c);
        this.mirrors.mirror(row.contentHash, row.solution);
        return row;
      });
  }

  /**
   * The item's boxes as it shows them, merged from `model` (the caller may pass rows it keeps)
   * and the item's corrections, read now.
   */
  read(
    media: MediaRecord,
    contentHash: string,
    solution: string,
    result: ResultRow | undefined,
    model: readonly DetectionRow[],
  ): ItemState {
    const corrections = this.db.corrections.forContent(contentHash, solution);
    const boxes = mergeCorrections(model, corrections, { includeDeleted: true });
    return { media, result, content: { contentHash, solution }, model, corrections, boxes };
  }

  /**
   * One edit on an item read once: planned on its boxes, its correction written, the boxes after
   * it derived from the same rows (the edited box alone merged again when it can be), and the
   * mirror and priority written from them — all in one transaction.
   */
  edit(item: ItemState, edit: ReviewEdit): EditOutcome {
    const plan = planEdit(item.boxes, edit, item.content);
    const box = edit.kind === 'add' ? undefined : findBox(item.boxes, edit.box);
    const { result } = item;
    return this.db.transaction(() => {
      const stored = this.db.corrections.put(plan.correction);
      const after = mergeAfterPut(item.boxes, item.model, item.corrections, box, stored);
      if (!after.incremental) {
        // Others may pair differently now: the whole content's mirror, read afresh.
        this.mirrors.mirror(item.content.contentHash, item.content.solution);
      } else if (result) {
        const changes = new MirrorChanges();
        const shown = after.boxes.find((b) => b.correctionId === stored.id);
        if (shown?.detectionId != null)
          changes.detection(shown.detectionId, mirroredReview(shown), shown.origin);
        changes.count(result.id, after.boxes.filter(counted).length);
        this.db.mirror.apply(changes);
        this.mirrors.rescore(result.id, after.boxes);
      }
      const next = { ...item, corrections: after.corrections, boxes: after.boxes };
      return { stored, inverse: plan.inverse(stored), item: next };
    });
  }

  /** Runs `fn` as one transaction (several edits, all or none). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn);
  }

  /** Inserts (no id) or replaces (id) one correction in its own transaction, mirrored. */
  put(correction: CorrectionInput): CorrectionRow {
    return this.putTx(correction);
  }

  /** Many corrections in ONE transaction (all or none), each content mirrored once. */
  putMany(corrections: readonly CorrectionInput[]): CorrectionRow[] {
    return this.db.transaction(() => {
      const rows = this.db.corrections.putMany(corrections);
      const contents = new Map(rows.map((r) => [`${r.solution}\u0000${r.contentHash}`, r]));
      for (const r of contents.values()) this.mirrors.mirror(r.contentHash, r.solution);
      return rows;
    });
  }

  /**
   * A writer for a bulk writer's own transaction: each content's rows are written as they come,
   * and the mirror is gathered as ids and written set-based at `finish`.
   */
  bulkWriter(): CorrectionsBulkWriter {
    const raw: RawCorrectionsWriter = this.db.corrections.bulkWriter();
    const changes = new MirrorChanges();
    // Contents whose mirror is gathered but not yet written: a second write of one of them is
    // mirrored from the table, so the first's values are written before it is read again.
    const gathered = new Set<string>();
    return {
      write: (corrections, known) => {
        const first = corrections[0];
        if (!first) return;
        const key = `${first.solution}\u0000${first.contentHash}`;
        if (gathered.has(key)) {
          this.db.mirror.apply(changes);
          gathered.clear();
        }
        raw.write(corrections, known?.contentId);
        gathered.add(key);
        // Only a content whose every correction is new can be mirrored from what was written.
        if (known && corrections.every((c) => c.id === undefined)) {
          const rows = asMergeCorrections(corrections);
          this.mirrors.planKnown(known.resultId, known.model, rows, changes, !known.unscored);
        } else this.mirrors.plan(first.contentHash, first.solution, changes);
      },
      finish: () => {
        this.db.mirror.apply(changes);
        gathered.clear();
      },
    };
  }

  /** Many corrections in ONE transaction, grouped by content, read back by nobody; how many. */
  writeMany(corrections: readonly CorrectionInput[], fresh?: FreshContents): number {
    if (corrections.length === 0) return 0;
    return this.db.transaction(() => {
      const contents = new Map<string, CorrectionInput[]>();
      for (const c of corrections) {
        const key = `${c.solution}\u0000${c.contentHash}`;
        const list = contents.get(key);
        if (list) list.push(c);
        else contents.set(key, [c]);
      }
      const writer = this.bulkWriter();
      for (const list of contents.values()) {
        const c = list[0] as CorrectionInput;
        writer.write(list, fresh?.(c.contentHash, c.solution));
      }
      writer.finish();
      return corrections.length;
    });
  }

  /** A result saved inside the caller's transaction; a person's corrections laid over it. */
  private saveOne(input: ResultInput): ResultRow {
    this.resultWrites++;
    const row = this.db.results.write(input);
    // Re-analysis: the person's corrections of this content stay, laid over the new boxes.
    if (!this.mirrors.mirror(input.contentHash, input.solution)) return row;
    return this.db.results.find(input.contentHash, input.solution) ?? row;
  }

  saveResult(input: ResultInput): ResultRow {
    return this.db.transaction(() => this.saveOne(input));
  }

  /** Many results in ONE transaction (one commit), each as `saveResult` would. */
  saveResults(inputs: readonly ResultInput[]): ResultRow[] {
    return this.db.transaction(() => inputs.map((i) => this.saveOne(i)));
  }

  /**
   * Rejecting a box takes it out of the result's box count; accepting one puts it back. Stored as
   * the box's correction, so it survives re-analysis.
   */
  setReview(detectionId: number, review: ReviewState): void {
    const hit = this.db.results.ownerOf(detectionId);
    if (!hit) throw new StoreError('not_found', `detection ${detectionId} does not exist`);
    const merged = mergeCorrections(
      this.db.results.detections(hit.resultId),
      this.db.corrections.forContent(hit.contentHash, hit.solution),
      { includeDeleted: true },
    );
    const box = merged.find((b) => b.detectionId === detectionId);
    if (!box) throw new StoreError('not_found', `detection ${detectionId} does not exist`);
    this.put(
      correctionOf({ ...box, review }, { contentHash: hit.contentHash, solution: hit.solution }),
    );
  }

  /** Accepts the boxes by rule in ONE transaction; returns the batch id. */
  applyRules(
    solution: string,
    target: number,
    files: number,
    contents: readonly RuleAcceptance[],
  ): number {
    return this.db.transaction(() => {
      const id = this.db.ruleBatches.apply(solution, target, files, contents);
      for (const c of contents) this.mirrors.mirror(c.contentHash, solution);
      return id;
    });
  }

  /** Undoes a batch; returns how many boxes went back, null if it is unknown or undone. */
  undoRules(batchId: number): number | null {
    return this.db.transaction(() => {
      const undone = this.db.ruleBatches.undo(batchId);
      if (!undone) return null;
      for (const c of undone.contents) this.mirrors.mirror(c, undone.solution);
      return undone.boxes;
    });
  }
}
