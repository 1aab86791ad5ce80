/**
 * Playing clips: the original where Chromium can play it, else a proxy the app makes with ffmpeg
 * in the background (cached by content hash). The renderer asks, then listens for progress.
 */
import { Id } from './common-schemas.js';
import { z } from './zod.js';

export const PlayableInput = z.object({
  id: Id,
  /** The original loaded but shows no picture (`videoWidth` 0): make a proxy anyway. */
  force: z.boolean().default(false),
});

export const ProxyState = z.enum(['ready', 'making', 'failed']);

export const Playable = z.object({
  id: Id,
  /** What to play: the file itself, or the proxy (once `state` is ready). */
  variant: z.enum(['file', 'proxy']),
  /** The media URL (`<mediaBase>file/ID` or `<mediaBase>proxy/ID`). */
  url: z.string(),
  state: ProxyState,
  /** 0–1 while a proxy is made; 1 when ready. */
  progress: z.number().min(0).max(1),
  /** Why a proxy was needed ("AVI container", "hevc codec"…), null for the original. */
  reason: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** The clip's own frame rate and length (frame stepping, the timeline). */
  fps: z.number().nullable(),
  durationMs: z.number().nullable(),
});
export type Playable = z.infer<typeof Playable>;
