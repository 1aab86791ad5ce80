/** `media.playable`: what the renderer plays for a clip (the original or its proxy). */
import type { MediaRecord } from '../core/store/store-types.js';
import { LabelDeskError, type Handlers, type Playable } from '../shared/contract/index.js';
import type { ProxyMaker } from './proxy-maker.js';

type ProxyState = Awaited<ReturnType<ProxyMaker['playable']>>;

export function toPlayable(media: MediaRecord, state: ProxyState, mediaBase: string): Playable {
  return {
    id: media.id,
    url: `${mediaBase}${state.variant}/${media.id}`,
    ...state,
    fps: media.fps,
    durationMs: media.durationMs,
  };
}

export function mediaHandlers(
  byId: (id: number) => MediaRecord | undefined,
  proxies: ProxyMaker,
  mediaBase: string,
): Pick<Handlers, 'media.playable'> {
  return {
    'media.playable': async ({ id, force }) => {
      const media = byId(id);
      if (!media || media.status === 'missing') {
        throw new LabelDeskError('unknown_item', 'That file is no longer in the library.');
      }
      if (media.kind !== 'video') {
        throw new LabelDeskError('not_a_clip', 'Only clips have a playable proxy.');
      }
      return toPlayable(media, await proxies.playable(media, force), mediaBase);
    },
  };
}
