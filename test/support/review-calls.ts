/** Calls the review handlers (box edits and track decisions) the way the transports do. */
import { reviewHandlers } from '../../electron/application/review-handlers.js';
import type { RunController } from '../../electron/application/run-controller.js';
import { keyframeHandlers } from '../../electron/application/keyframe-handlers.js';
import { trackHandlers } from '../../electron/application/track-handlers.js';
import type { ClipTracks } from '../../electron/application/tracking/clip-tracks.js';
import type { LibraryStore } from '../../electron/core/store/store-types.js';
import {
  CALLS,
  type CallInput,
  type CallName,
  type CallResult,
} from '../../electron/shared/contract/index.js';

/** One call of `handlers`, its arguments and answer through the contract's schemas. */
export async function callThrough<N extends CallName>(
  handlers: object,
  name: N,
  input: CallInput<N>,
): Promise<CallResult<N>> {
  const handler = (handlers as Record<string, (a: unknown) => unknown>)[name];
  if (!handler) throw new Error(`no handler for ${name}`);
  return CALLS[name].output.parse(await handler(CALLS[name].input.parse(input))) as CallResult<N>;
}

/**
 * Arguments and answer go through the contract's schemas; `changed` hears each changed folder.
 * With `tracks`, clips are tracked on the tracker's thread as in the app.
 */
export async function callReview<N extends CallName>(
  store: LibraryStore,
  changed: (folderId: number) => void,
  name: N,
  input: CallInput<N>,
  tracks?: ClipTracks,
): Promise<CallResult<N>> {
  const onChange = (m: { folderId: number }) => changed(m.folderId);
  // Re-analysis is not called here: the run controller is never reached.
  const h = {
    ...reviewHandlers(store, undefined as unknown as RunController, onChange, tracks),
    ...trackHandlers(store, onChange, tracks),
    ...keyframeHandlers(store, onChange, tracks),
  };
  return callThrough(h, name, input);
}
