/**
 * The grid's thread: pages, counts, ids and single items on a read-only connection of their own,
 * so the first page is never queued behind the library view thread's whole-library totals (the
 * Folders' per-folder counts are one pass over 100k files). Loads only the SQL it needs.
 */
import { workerData } from 'node:worker_threads';
import { openDatabase } from '../../node-lib/sqlite.js';
import { LibraryBrowse } from './library-browse.js';
import { DataVersionCache } from './library-view-cache.js';
import { answerRequests } from './library-view-thread.js';

const { file, nativeBinding } = workerData as { file: string; nativeBinding?: string };
const db = openDatabase(file, { nativeBinding });
db.pragma('query_only = ON');
answerRequests(new LibraryBrowse(db, new DataVersionCache(db)));
