/**
 * The bodies the misbehaving test service sends: well-formed answers as service-interface.md and
 * DESIGN.md describe them, and the oversized ones, streamed piece by piece so that the service
 * itself never holds more than one piece (a 1 GiB answer costs the test process nothing).
 */
import type { ServerResponse } from 'node:http';

export const ANALYSED = { width: 640, height: 480 };
/** Frames a clip is charged (at submission) and analysed, whatever its length. */
export const CLIP_FRAMES = 6;

/** One detection, corner-origin: the centre reading would put it outside the picture. */
export function detection(i: number): object {
  const x = 0.01 + (i % 7) * 0.001;
  const y = 0.02;
  const w = 0.3;
  const h = 0.4;
  return {
    label: 'person',
    classId: 0,
    score: 0.9,
    bbox: { x, y, w, h },
    bboxPx: {
      x: x * ANALYSED.width,
      y: y * ANALYSED.height,
      w: w * ANALYSED.width,
      h: h * ANALYSED.height,
    },
  };
}

export interface CreditsView {
  spent: number;
  remaining: number;
  hourRemaining: number;
}

export function imageAnswer(detections: readonly object[], credits: CreditsView): object {
  return {
    detections,
    image: { width: 320, height: 240, ...analysedFields(), format: 'jpeg' },
    stats: { model: 'misbehaving', inferenceMs: 1, totalMs: 1 },
    credits,
  };
}

const analysedFields = () => ({
  analysedWidth: ANALYSED.width,
  analysedHeight: ANALYSED.height,
});

export function clipResult(): object {
  return {
    fps: 10,
    sampledFps: 2,
    durationMs: CLIP_FRAMES * 500,
    width: 160,
    height: 120,
    ...analysedFields(),
    frames: Array.from({ length: CLIP_FRAMES }, (_, index) => ({
      index,
      timeMs: index * 500,
      detections: [detection(index)],
    })),
  };
}

/** A detection in the fewest bytes the interface allows (boxes only): many fit under a size cap. */
export const TINY_DETECTION = '{"bbox":[0.01,0.02,0.3,0.4],"bboxPx":[6.4,9.6,192,192]}';

/** Waits for the socket to drain; false when the client went away. */
function drained(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

/**
 * An image answer whose detections list is `count` copies of `item`, streamed (Content-Length
 * given when `count` is finite, chunked otherwise). Resolves with the bytes written when the
 * answer ended or the client went away.
 */
export async function streamDetections(
  res: ServerResponse,
  item: string,
  count: number,
  credits: CreditsView,
): Promise<number> {
  const head = '{"detections":[';
  const tail = `],${JSON.stringify(imageAnswer([], credits)).slice(1).replace('"detections":[],', '')}`;
  const perPiece = Math.max(1, Math.floor((64 * 1024) / (item.length + 1)));
  const piece = Array.from({ length: perPiece }, () => item).join(',');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (Number.isFinite(count)) {
    const commas = Math.max(0, count - 1);
    headers['content-length'] = String(head.length + count * item.length + commas + tail.length);
  }
  res.writeHead(200, headers);
  let written = 0;
  const write = async (text: string): Promise<boolean> => {
    if (res.destroyed) return false;
    written += text.length;
    return res.write(text) || (await drained(res));
  };
  if (!(await write(head))) return written;
  let left = count;
  let first = true;
  while (left > 0) {
    const n = Math.min(left, perPiece);
    const text = n === perPiece ? piece : Array.from({ length: n }, () => item).join(',');
    if (!(await write(first ? text : `,${text}`))) return written;
    first = false;
    left -= n;
  }
  await write(tail);
  res.end();
  return written;
}

/** An answer sent one byte every `everyMs`: each byte is progress, the whole takes forever. */
export async function trickle(res: ServerResponse, body: string, everyMs: number): Promise<void> {
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
  });
  for (const ch of body) {
    if (res.destroyed) return;
    res.write(ch);
    await new Promise((r) => setTimeout(r, everyMs));
  }
  res.end();
}
