/**
 * A clip's boxes for the video review, fetched packed (`review.boxesPacked`: a 2-hour clip's
 * 50,000 boxes are a quarter of the JSON and read back in one pass) but kept under the
 * `review.boxes` query key in the same shape, so the edit runner's optimistic writes, undo and
 * refetches work on clips exactly as on pictures.
 */
import { useQuery } from '@tanstack/react-query';
import type { CallResult, LabelDeskApi } from '@shared/contract/index.js';
import { unpackReviewBoxes } from '@shared/contract/packed-review-boxes.js';
import { useApiHandle } from '../../api/api-context.js';
import { boxesQuery } from '../review/review-edit-runner.js';

/** Chromium 140+ decodes base64 natively (one call, no binary string of megabytes between). */
const native = Uint8Array as unknown as { fromBase64?(s: string): Uint8Array };

function bytesOf(base64: string): ArrayBuffer {
  if (native.fromBase64) return native.fromBase64(base64).buffer as ArrayBuffer;
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes.buffer;
}

/** An item's boxes (a clip's or a picture's) through the packed call, as `review.boxes` answers. */
export async function fetchPackedBoxes(
  api: Pick<LabelDeskApi, 'call'>,
  id: number,
  solution: string,
): Promise<CallResult<'review.boxes'>> {
  const { packed, ...size } = await api.call('review.boxesPacked', { id, solution });
  const boxes = unpackReviewBoxes({
    ...packed,
    numbers: new Float64Array(bytesOf(packed.numbers)),
    ints: new Int32Array(bytesOf(packed.ints)),
  });
  return { ...size, boxes };
}

export function useClipBoxes(id: number, solution: string) {
  const { api } = useApiHandle();
  return useQuery({
    queryKey: boxesQuery(id, solution),
    queryFn: () => fetchPackedBoxes(api, id, solution),
  });
}
