/** The scope's media on the UI's process: read a page at a time, yielding between pages. */
import { scopePages, type MediaScope } from '../core/store/scope-media.js';
import type { MediaReader } from '../core/store/store-ports.js';
import type { MediaRecord } from '../core/store/store-types.js';

export async function mediaOfScope(store: MediaReader, scope: MediaScope): Promise<MediaRecord[]> {
  const media: MediaRecord[] = [];
  for (const page of scopePages(store, scope)) {
    media.push(...page);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return media;
}
