/** `labels.import`: the import dialog's one call, over the same use-case as `labeldesk import`. */
import { isAbsolute } from 'node:path';
import type { LibraryStore } from '../core/store/store-types.js';
import { LabelDeskError, type Handlers } from '../shared/contract/index.js';
import { importLabelsInWorker } from './import-labels-in-worker.js';

/** Enough to fix a source; the count says how many more there are. */
const MAX_ISSUES = 1000;

export function importHandlers(
  store: LibraryStore,
  changed: () => void,
): Pick<Handlers, 'labels.import'> {
  return {
    'labels.import': async ({ format, source, solution }) => {
      if (!isAbsolute(source)) {
        throw new LabelDeskError('bad_source', 'The source must be an absolute path.');
      }
      const summary = await importLabelsInWorker(store, { format, source, solution });
      if (summary.files > 0) changed();
      return {
        files: summary.files,
        unchanged: summary.unchanged,
        boxes: summary.boxes,
        issues: summary.issues.slice(0, MAX_ISSUES),
        issueCount: summary.issues.length,
      };
    },
  };
}
