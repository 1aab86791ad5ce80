/**
 * The items next/previous walk through: the library's order and filter when the item was opened
 * (kept for the visit, so accepting an item does not pull it out from under the reviewer), and
 * the neighbours prefetched (their boxes, their details, their decoded pictures) so they open at once.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { CallInput } from '@shared/contract/index.js';
import { useApiHandle } from '../../api/api-context.js';
import { callKey, useCall } from '../../api/use-call.js';
import { fetchPackedBoxes } from '../video-review/use-clip-boxes.js';
import { boxesQuery } from './use-review-edits.js';

const MAX_IDS = 200_000;
const KEPT_PICTURES = 6;

export function useItemOrder(
  order: Omit<CallInput<'library.ids'>, 'offset' | 'limit'>,
  id: number,
  mediaBase: string,
) {
  const { api } = useApiHandle();
  const client = useQueryClient();
  const ids = useCall(
    'library.ids',
    { ...order, offset: 0, limit: MAX_IDS },
    { staleTime: Infinity, refetchOnWindowFocus: false },
  ).data;
  const at = ids ? ids.indexOf(id) : -1;
  const prev = (at > 0 ? ids?.[at - 1] : null) ?? null;
  const next = (at >= 0 ? ids?.[at + 1] : null) ?? null;
  // Decoded pictures held so the browser keeps them ready (a few, not the whole folder).
  const pictures = useRef(new Map<number, HTMLImageElement>());

  useEffect(() => {
    const solution = order.filter.solution;
    for (const n of [next, prev]) {
      if (n === null) continue;
      void client.prefetchQuery({
        queryKey: boxesQuery(n, solution),
        // Packed: a neighbour that is a long clip must not cost 20 MB of JSON (same answer).
        queryFn: () => fetchPackedBoxes(api, n, solution),
      });
      void client
        .fetchQuery({
          queryKey: callKey('library.item', { id: n, solution, withBoxes: false }),
          queryFn: () => api.call('library.item', { id: n, solution, withBoxes: false }),
        })
        .then((d) => {
          // Clips are not fetched ahead: a picture element would download the whole file.
          if (d.item.kind !== 'image' || pictures.current.has(n)) return;
          const img = new Image();
          img.src = `${mediaBase}file/${n}`;
          img.decode().catch(() => undefined);
          pictures.current.set(n, img);
          if (pictures.current.size > KEPT_PICTURES) {
            const [oldest] = pictures.current.keys();
            if (oldest !== undefined) pictures.current.delete(oldest);
          }
        })
        .catch(() => undefined);
    }
  }, [api, client, mediaBase, next, prev, order.filter.solution]);

  return { prev, next, position: at, total: ids?.length ?? null };
}
