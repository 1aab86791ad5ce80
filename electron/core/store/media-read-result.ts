/**
 * What one read of a file found, for `media.setHashAndProbe`: its hash, and its probe result when
 * the probe succeeded. `size`/`mtimeMs` are the file's as it was read: the row is updated only if
 * it still records exactly that version (a file rescanned or changed meanwhile is left alone).
 */
export interface MediaReadResult {
  id: number;
  size: number;
  mtimeMs: number;
  contentHash: string;
  probe?: {
    width: number;
    height: number;
    orientation: number;
    durationMs: number | null;
    fps: number | null;
  };
}
