/**
 * The library view's thread: its queries (a count over 100k files, per-class totals over a
 * million boxes) run here, so the process answering the UI never waits on them.
 */
import { workerData } from 'node:worker_threads';
import { LibraryView } from './library-view.js';
import { answerRequests } from './library-view-thread.js';

const { file, nativeBinding } = workerData as { file: string; nativeBinding?: string };
answerRequests(new LibraryView(file, nativeBinding));
