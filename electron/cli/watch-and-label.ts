/** `label --watch`: keeps the library current and labels new or changed files as they settle. */
import type { MediaRecord } from '../core/store/store-types.js';
import type { Selection } from './collect-media.js';

/** Files that settle within this window are labelled together. */
const BATCH_MS = 500;

export async function watchAndLabel(
  selection: Selection,
  signal: AbortSignal,
  labelBatch: (media: MediaRecord[]) => Promise<void>,
): Promise<void> {
  const { library, store } = selection;
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let chain = Promise.resolve();
  const flush = () => {
    const paths = pending;
    pending = new Set();
    chain = chain.then(async () => {
      await library.hashPending();
      await library.probePending();
      const media = [...paths]
        .map((p) => store.media.byPath(p))
        .filter((m): m is MediaRecord => m !== undefined && m.status !== 'missing');
      if (media.length) await labelBatch(media);
    });
  };
  const watcher = await library.watch((event) => {
    if (event.type === 'removed') return;
    pending.add(event.path);
    clearTimeout(timer);
    timer = setTimeout(flush, BATCH_MS);
  });
  await new Promise<void>((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  clearTimeout(timer);
  await watcher.close();
  await chain.catch(() => undefined);
}
