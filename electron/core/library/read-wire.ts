/**
 * A file read as it crosses from a read worker to the main thread: one flat object per file. The
 * structured clone copies nested objects one by one, and FileRead's nesting (result, probe, info)
 * cost the main thread twice the deserialising (100k reads: ~150 ms against ~65 ms flat), so the
 * common case, a header parsed, travels with its fields inline; the rare ones keep their shape.
 */
import type { FileRead } from './read-files.js';
import type { MediaInfo, ProbeResult } from './probe-media.js';

export type WireRead =
  | { ok: false; code: string; message: string }
  | ({
      ok: true;
      hash: string;
      size: number;
      mtimeMs: number;
      fileId: string;
      /** A parsed header's fields are inline (`parsed`); any other probe result is `probe`. */
      parsed: boolean;
      probe?: ProbeResult;
    } & Partial<MediaInfo>);

export function toWire(read: FileRead): WireRead {
  if (!read.ok) return { ok: false, code: read.error.code, message: read.error.message };
  const { hash, size, mtimeMs, fileId, probe } = read;
  if (probe?.ok) return { ok: true, hash, size, mtimeMs, fileId, parsed: true, ...probe.info };
  return { ok: true, hash, size, mtimeMs, fileId, parsed: false, ...(probe ? { probe } : {}) };
}

export function fromWire(w: WireRead): FileRead {
  if (!w.ok) return { ok: false, error: { code: w.code, message: w.message } };
  const { hash, size, mtimeMs, fileId } = w;
  return { ok: true, hash, size, mtimeMs, fileId, probe: w.parsed ? parsedProbe(w) : w.probe };
}

function parsedProbe(w: Partial<MediaInfo>): ProbeResult {
  const info = {
    width: w.width,
    height: w.height,
    orientation: w.orientation,
    format: w.format,
    durationMs: w.durationMs,
    fps: w.fps,
    rotation: w.rotation,
  } as MediaInfo;
  return { ok: true, info };
}
