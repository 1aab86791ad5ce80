/** `label --watch`: keeps the library current and labels new or changed files as they settle. */
import { stat } from 'node:fs/promises';
import type { MediaRecord } from '../core/store/store-types.js';
import { selectedMedia, type Selection } from './collect-media.js';

/** Files that settle within this window are labelled together. */
const BATCH_MS = 500;
/** Longer than the watcher's write-finish window (400 ms): a file unchanged this long is complete. */
const SETTLE_MS = 500;

export async function watchAndLabel(
  selection: Selection,
  signal: AbortSignal,
  labelBatch: (media: MediaRecord[]) => Promise<void>,
): Promise<void> {
  const { library, store } = selection;
  // Only the roots the command was given are watched and rescanned.
  const only = { folderIds: selection.folders.map((f) => f.id) };
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let chain = Promise.resolve();
  const flush = () => {
    const paths = pending;
    pending = new Set();
    chain = chain.then(async () => {
      await library.hashAndProbePending(undefined, only);
      const media = [...paths]
        .map((p) => store.media.byPath(p))
        .filter((m): m is MediaRecord => m !== undefined && m.status !== 'missing');
      if (media.length) await labelBatch(media);
    });
  };
  // A given folder's root may be larger than what was given: only that is labelled (and paid for).
  const watcher = await library.watch((event) => {
    if (event.type === 'removed' || !selection.contains(event.path)) return;
    pending.add(event.path);
    clearTimeout(timer);
    timer = setTimeout(flush, BATCH_MS);
  }, only);
  // The watcher takes the files present when it starts as known, so whatever arrived or changed
  // since the first scan (during the first run, which may take hours) is found by one more scan.
  // Only files that then stay unchanged for a moment are taken: one still being written raises
  // more events, and the watcher reports it once it is complete.
  const seen = new Map(selection.media.map((m) => [m.path, `${m.size}:${m.mtimeMs}`]));
  await selection.rescan();
  const arrived = selectedMedia(selection).filter(
    (m) => m.status !== 'missing' && seen.get(m.path) !== `${m.size}:${m.mtimeMs}`,
  );
  if (arrived.length && !signal.aborted) {
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    for (const m of arrived) {
      const st = await stat(m.path).catch(() => undefined);
      if (st?.size === m.size && st.mtimeMs === m.mtimeMs) pending.add(m.path);
    }
    if (pending.size) flush();
  }
  await new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
  clearTimeout(timer);
  await watcher.close();
  await chain.catch(() => undefined);
}
