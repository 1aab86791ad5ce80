/** An export item for one clip, as the store gives it, for tests of the clip exports. */
import type { DetectionRow, ExportItem } from '../../electron/core/store/store-types.js';

export function clipExportItem(
  clip: { path: string; width: number; height: number; fps: number; durationMs: number },
  detections: DetectionRow[],
): ExportItem {
  const { path, width, height, fps, durationMs } = clip;
  return {
    media: {
      id: 1,
      folderId: 1,
      path,
      kind: 'video',
      size: 1,
      mtimeMs: 1,
      contentHash: 'h',
      width,
      height,
      orientation: 1,
      durationMs,
      fps,
      status: 'present',
      errorCode: null,
      errorMessage: null,
    },
    result: {
      id: 1,
      contentHash: 'h',
      solution: 'objects',
      serviceUrl: 'u',
      analysedWidth: width,
      analysedHeight: height,
      model: null,
      boxCount: detections.length,
      createdAt: 0,
    },
    detections,
  };
}
