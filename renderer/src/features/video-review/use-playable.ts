/**
 * What the clip element plays: the original, or the proxy the app makes in the background (its
 * progress arrives as `media.proxyProgress` events). If the original loads with no picture
 * (`videoWidth` 0 after `loadeddata`, as HEVC does), a proxy is asked for anyway.
 */
import { useCallback, useEffect, useState } from 'react';
import type { Playable } from '@shared/contract/index.js';
import { useApiHandle } from '../../api/api-context.js';

export interface PlayableState {
  playable: Playable | null;
  error: unknown;
  /** Call when the element shows no picture: asks for a proxy instead of the original. */
  noPicture(): void;
}

export function usePlayable(id: number): PlayableState {
  const { api } = useApiHandle();
  const [playable, setPlayable] = useState<Playable | null>(null);
  const [error, setError] = useState<unknown>(null);

  const ask = useCallback(
    (force: boolean) => {
      api.call('media.playable', { id, force }).then(setPlayable, setError);
    },
    [api, id],
  );

  useEffect(() => {
    setPlayable(null);
    setError(null);
    const off = api.on('media.proxyProgress', (p) => {
      if (p.id === id) setPlayable(p);
    });
    ask(false);
    return off;
  }, [api, id, ask]);

  const noPicture = useCallback(() => {
    if (playable?.variant === 'file') ask(true);
  }, [ask, playable?.variant]);

  return { playable, error, noPicture };
}
