/**
 * What the runner reads and writes of the library: a narrow port of LibraryStore (issue 22), so
 * a runner's fake or a caller need only these parts, and the runner cannot reach the rest.
 */
import type { LibraryStore } from '../store/store-types.js';

export type RunnerStore = Pick<
  LibraryStore,
  | 'transaction'
  | 'submissions'
  | 'rawAnswers'
  | 'results'
  | 'corrections'
  | 'ledger'
  | 'settings'
  | 'runs'
  | 'media'
  | 'folders'
  | 'costs'
  | 'catalog'
>;
