/** The model-quality calls: the reviewed mark of an item, and the evaluation of the library. */
import type {
  MediaReader,
  ReviewedPort,
  SettingsPort,
  SettingsReader,
  StoreFile,
} from '../../core/store/store-ports.js';
import type { MediaRecord, ReviewedMark } from '../../core/store/store-types.js';
import { LabelDeskError, type Handlers } from '../../shared/contract/index.js';
import type { QualityReport, ReviewedState } from '../../shared/contract/quality-schemas.js';
import { autoAccept, undoAutoAccept, type AutoAcceptStore } from './auto-accept.js';
import { evaluateInWorker } from './evaluate-in-worker.js';
import { storedTarget, storeTarget } from './quality-target.js';

type QualityHandlers = Pick<
  Handlers,
  | 'review.reviewed'
  | 'review.markReviewed'
  | 'quality.evaluate'
  | 'quality.target'
  | 'quality.setTarget'
  | 'quality.autoAccept'
  | 'quality.undoAutoAccept'
  | 'quality.lastAutoAccept'
>;

/** The mistakes a report lists per kind: enough to work through, small enough to send. */
export const MISTAKE_LIMIT = 200;

const stateOf = (mark: ReviewedMark | undefined): ReviewedState =>
  mark
    ? { reviewed: true, by: mark.reviewedBy, at: mark.reviewedAt }
    : { reviewed: false, by: null, at: null };

/** The use-case behind `quality.evaluate` and `labeldesk evaluate` (at the stored target unless told). */
export async function evaluateLibrary(
  store: StoreFile & SettingsReader,
  request: {
    solution: string;
    minScore: number;
    targetPrecision?: number | undefined;
    coco?: boolean | undefined;
  },
  nativeBinding?: string,
): Promise<QualityReport> {
  const started = performance.now();
  const targetPrecision = request.targetPrecision ?? storedTarget(store, request.solution);
  const report = await evaluateInWorker({
    file: store.file,
    nativeBinding,
    solution: request.solution,
    minScore: request.minScore,
    mistakeLimit: MISTAKE_LIMIT,
    targetPrecision,
    coco: request.coco === true,
  });
  const { images: _images, ...rest } = report;
  return {
    solution: request.solution,
    minScore: request.minScore,
    targetPrecision,
    ...rest,
    elapsedMs: performance.now() - started,
  };
}

export function qualityHandlers(
  store: AutoAcceptStore & MediaReader & ReviewedPort & SettingsPort,
  changed: (media: MediaRecord) => void,
  nativeBinding?: string,
  libraryChanged: () => void = () => undefined,
): QualityHandlers {
  const media = (id: number) => {
    const m = store.media.byId(id);
    if (!m) throw new LabelDeskError('not_found', `There is no item ${id} in the library.`);
    return m;
  };
  return {
    'review.reviewed': ({ id, solution }) => stateOf(store.reviewed.of(media(id).id, solution)),
    'review.markReviewed': ({ id, solution, reviewed }) => {
      const m = media(id);
      if (reviewed) {
        if (!store.reviewed.markReviewed([id], solution, 'person').length) {
          throw new LabelDeskError(
            'not_ready',
            `${m.path} has not been read yet: it cannot be marked reviewed.`,
          );
        }
      } else store.reviewed.unmarkReviewed([id], solution);
      changed(m);
      return stateOf(store.reviewed.of(id, solution));
    },
    'quality.evaluate': (request) => evaluateLibrary(store, request, nativeBinding),
    'quality.target': ({ solution }) => ({
      solution,
      targetPrecision: storedTarget(store, solution),
    }),
    'quality.setTarget': ({ solution, targetPrecision }) => {
      const before = storedTarget(store, solution);
      storeTarget(store, solution, targetPrecision);
      // A library sorted by Review priority orders its files again with the new thresholds.
      if (before !== targetPrecision) libraryChanged();
      return { solution, targetPrecision: storedTarget(store, solution) };
    },
    'quality.autoAccept': async (request) => {
      const result = await autoAccept(store, request, nativeBinding);
      if (result.batchId !== null) libraryChanged();
      return result;
    },
    'quality.lastAutoAccept': ({ solution }) => {
      const b = store.ruleBatches.latest(solution);
      return b ? { batchId: b.id, boxes: b.boxes, files: b.files } : null;
    },
    'quality.undoAutoAccept': ({ batchId }) => {
      const undone = undoAutoAccept(store, batchId);
      if (!undone) {
        throw new LabelDeskError('not_found', 'That auto-accept is unknown or already undone.');
      }
      libraryChanged();
      return undone;
    },
  };
}
