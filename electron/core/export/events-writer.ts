/**
 * Events CSV (RFC 4180, CRLF): what happened when in each clip, as the video review's Events
 * panel shows it (electron/shared/clips/clip-events.ts). One row per track per presence range of
 * its class: `start` and `end` are that track's first and last box within the range, in seconds
 * from the clip's start, so the rows of one range together span it. A track that leaves for a
 * second or more and comes back has a row in each range. Boxes in no track are not objects and
 * are not counted; images have no events and are skipped.
 */
import { clipEvents, type EventBox } from '../../shared/clips/clip-events.js';
import type { DetectionRow, MediaKind } from '../store/store-types.js';
import { roundTo } from './box-geometry.js';
import { trackIdOf, type PreparedItem } from './export-model.js';
import { CsvFileWriter } from './csv-file-writer.js';
import { csvRow } from './text-escape.js';

export const EVENTS_HEADER = [
  'clip',
  'class',
  'track',
  'start',
  'end',
  'boxes',
  'meanScore',
] as const;

function eventBox(d: DetectionRow): EventBox {
  const track = trackIdOf(d);
  return {
    label: d.label,
    trackId: track >= 0 ? track : null,
    frameIndex: d.frameIndex,
    keyframe: d.keyframe,
    timeMs: d.timeMs,
    score: d.score,
  };
}

export class EventsWriter extends CsvFileWriter {
  constructor(file: string) {
    super(file, EVENTS_HEADER);
  }

  accepts(kind: MediaKind): boolean {
    return kind === 'video';
  }

  /** The boxes written are those the events count (in a track, at a known time). */
  async add({ media, detections }: PreparedItem): Promise<number> {
    let boxes = 0;
    for (const event of clipEvents(Array.from(detections, eventBox))) {
      for (const t of event.tracks) {
        await this.sink.write(
          csvRow([
            media.path,
            event.label,
            t.trackId,
            roundTo(t.startMs / 1000, 3),
            roundTo(t.endMs / 1000, 3),
            t.boxes,
            roundTo(t.meanScore, 4),
          ]),
        );
        boxes += t.boxes;
      }
    }
    return boxes;
  }
}
