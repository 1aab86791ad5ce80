/**
 * A deterministic stand-in for the models engine (benchmarks and fast tests). Boxes come from the
 * pixels: the image is cut into a coarse grid and the cells whose brightness stands out from the
 * whole image become detections, so identical pixels always give identical boxes and different
 * pictures usually give different ones. Cheap enough for thousands of calls a second.
 */
import type { SolutionSpec } from '../solutions.js';
import { abortError } from './abort-error.js';
import type { DetectionEngine, EngineDetection, EngineStatus, RgbImage } from './engine-types.js';

export interface NullEngineOptions {
  latencyMs: number;
  solutions: readonly SolutionSpec[];
}

const GRID = 4;
/** Caps the work per image: a 64×64 lattice of samples is plenty for a stand-in. */
const SAMPLES_PER_SIDE = 64;
/** Luma difference (0–255) a cell needs over the image mean to count as an object. */
const MIN_CONTRAST = 6;
const MAX_DETECTIONS = 5;

interface Cell {
  index: number;
  luma: number;
  r: number;
  g: number;
  b: number;
}

function gridCells(image: RgbImage): Cell[] {
  const { data, width, height } = image;
  const sums = Array.from({ length: GRID * GRID }, () => ({ n: 0, r: 0, g: 0, b: 0 }));
  const across = Math.min(width, SAMPLES_PER_SIDE);
  const down = Math.min(height, SAMPLES_PER_SIDE);
  for (let sy = 0; sy < down; sy++) {
    const y = Math.floor(((sy + 0.5) * height) / down);
    const row = Math.floor((sy * GRID) / down) * GRID;
    for (let sx = 0; sx < across; sx++) {
      const x = Math.floor(((sx + 0.5) * width) / across);
      const cell = sums[row + Math.floor((sx * GRID) / across)];
      if (!cell) continue;
      const at = (y * width + x) * 3;
      cell.n++;
      cell.r += data[at] ?? 0;
      cell.g += data[at + 1] ?? 0;
      cell.b += data[at + 2] ?? 0;
    }
  }
  return sums.map((s, index) => {
    const n = Math.max(1, s.n);
    const [r, g, b] = [s.r / n, s.g / n, s.b / n];
    return { index, r, g, b, luma: 0.299 * r + 0.587 * g + 0.114 * b };
  });
}

export function nullDetections(image: RgbImage, classes: readonly string[]): EngineDetection[] {
  if (image.width <= 0 || image.height <= 0 || classes.length === 0) return [];
  const cells = gridCells(image);
  const mean = cells.reduce((sum, c) => sum + c.luma, 0) / cells.length;
  return cells
    .map((c) => ({ c, contrast: Math.abs(c.luma - mean) }))
    .filter(({ contrast }) => contrast >= MIN_CONTRAST)
    .sort((a, b) => b.contrast - a.contrast || a.c.index - b.c.index)
    .slice(0, MAX_DETECTIONS)
    .map(({ c, contrast }) => {
      // The label follows the cell's colour, so a recoloured picture changes labels too.
      const classId =
        (Math.round(c.r / 32) * 64 + Math.round(c.g / 32) * 8 + Math.round(c.b / 32)) %
        classes.length;
      const score = Math.round((0.5 + Math.min(0.49, contrast / 255)) * 1000) / 1000;
      const box = {
        x: (c.index % GRID) / GRID,
        y: Math.floor(c.index / GRID) / GRID,
        w: 1 / GRID,
        h: 1 / GRID,
      };
      return { label: classes[classId] ?? 'object', classId, score, box };
    });
}

export function createNullEngine(options: NullEngineOptions): DetectionEngine {
  const classesById = new Map(options.solutions.map((s) => [s.id, s.classes]));
  const ready = Object.fromEntries(options.solutions.map((s) => [s.id, 'ready' as const]));
  let closed = false;
  return {
    kind: 'null',
    status: (): EngineStatus => ({ state: 'ready', solutions: { ...ready } }),
    whenReady: () => Promise.resolve(),
    detect(solutionId, image, signal) {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(abortError(signal));
        if (closed) return reject(new Error('Detection engine is closed'));
        const classes = classesById.get(solutionId);
        if (!classes) return reject(new Error(`Unknown solution "${solutionId}"`));
        const detections = nullDetections(image, classes);
        const finish = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve({ detections, inferenceMs: options.latencyMs });
        };
        // latency 0 still answers asynchronously, like a real engine would.
        const cancel =
          options.latencyMs > 0
            ? (
                (t) => () =>
                  clearTimeout(t)
              )(setTimeout(finish, options.latencyMs))
            : (
                (t) => () =>
                  clearImmediate(t)
              )(setImmediate(finish));
        const onAbort = (): void => {
          cancel();
          reject(abortError(signal));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    close() {
      closed = true;
      return Promise.resolve();
    },
  };
}
