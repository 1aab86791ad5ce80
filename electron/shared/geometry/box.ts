/**
 * The one box: top-left corner and size, normalised 0–1 of the displayed (EXIF-oriented) picture
 * the model analysed. Core, the contract and the renderer share it; pixels are computed where
 * pixels are needed (exports, the canvas). The contract validates it with `BoxSchema`.
 */
import { z } from '../contract/zod.js';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A box's nullable columns (a correction that leaves the box as the model drew it has none). */
export type ColumnsOf<T> = { [K in keyof T]: T[K] | null };

export const BoxSchema = z.object({
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
}) satisfies z.ZodType<Box>;
