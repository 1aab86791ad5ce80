/**
 * The modules the review-edit scenario runs on, from this build or from a build of another
 * revision (`LABELDESK_BENCH_BEFORE=<dir>`: a checkout of it, built with
 * `npx tsc -p tsconfig.node.json`, its node_modules linked), loaded from its build/ by dynamic
 * import. Both run in one process, one after the other, so "before" and "after" share the
 * machine's load of that minute. Typed as this revision's: the calls the scenario makes
 * (open a library, the review handlers, the tracker's thread, the long clip) kept their shape.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { reviewHandlers } from '../electron/application/review-handlers.js';
import { ClipTracks } from '../electron/application/tracking/clip-tracks.js';
import { openLibraryStore } from '../electron/core/review/open-library-store.js';
import { buildLongClipStore } from './interpolated-export/long-clip-store.js';

export interface Revision {
  name: string;
  openLibraryStore: typeof openLibraryStore;
  reviewHandlers: typeof reviewHandlers;
  ClipTracks: typeof ClipTracks;
  buildLongClipStore: typeof buildLongClipStore;
  /**
   * Each detection given also in pixels (`bboxPx`): a store from before issue 22 needs it; later
   * ones read only the fields they know.
   */
  withPixels: boolean;
}

export const thisRevision: Revision = {
  name: 'after',
  openLibraryStore,
  reviewHandlers,
  ClipTracks,
  buildLongClipStore,
  withPixels: false,
};

/** The first of `paths` (under `build`) that exists: a module the revisions keep in different folders. */
function moduleIn(build: string, ...paths: string[]): string {
  const found = paths.map((p) => join(build, p)).find((p) => existsSync(p));
  if (!found) throw new Error(`LABELDESK_BENCH_BEFORE: none of ${paths.join(', ')} in ${build}`);
  return pathToFileURL(found).href;
}

/** The revision built in `dir` (see the top of this file). */
export async function revisionIn(dir: string): Promise<Revision> {
  const build = join(resolve(dir), 'build');
  const [store, handlers, tracks, clip] = await Promise.all([
    import(
      moduleIn(
        build,
        'electron/core/review/open-library-store.js',
        'electron/core/store/open-library-store.js',
      )
    ) as Promise<{ openLibraryStore: typeof openLibraryStore }>,
    import(moduleIn(build, 'electron/application/review-handlers.js')) as Promise<{
      reviewHandlers: typeof reviewHandlers;
    }>,
    import(moduleIn(build, 'electron/application/tracking/clip-tracks.js')) as Promise<{
      ClipTracks: typeof ClipTracks;
    }>,
    import(moduleIn(build, 'bench/interpolated-export/long-clip-store.js')) as Promise<{
      buildLongClipStore: typeof buildLongClipStore;
    }>,
  ]);
  return {
    name: 'before',
    openLibraryStore: store.openLibraryStore,
    reviewHandlers: handlers.reviewHandlers,
    ClipTracks: tracks.ClipTracks,
    buildLongClipStore: clip.buildLongClipStore,
    withPixels: true,
  };
}
