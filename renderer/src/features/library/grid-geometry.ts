/** Layout and keyboard arithmetic of the virtual grid (fixed-size tiles), free of React. */

export const TILE_WIDTH = 168;
export const TILE_HEIGHT = 196;
export const TILE_GAP = 8;
export const PAGE_SIZE = 200;

/** Columns that fit a width, at least one. */
export function columnsFor(width: number): number {
  return Math.max(1, Math.floor((width + TILE_GAP) / (TILE_WIDTH + TILE_GAP)));
}

export function rowCount(total: number, columns: number): number {
  return Math.ceil(total / columns);
}

/** The page indices (`offset = page × PAGE_SIZE`) holding items `first..last`. */
export function pagesFor(first: number, last: number): number[] {
  if (last < first) return [];
  const pages: number[] = [];
  for (let p = Math.floor(first / PAGE_SIZE); p <= Math.floor(last / PAGE_SIZE); p += 1) {
    pages.push(p);
  }
  return pages;
}

/**
 * Where focus goes for a grid key, or null if the key is not a move. `pageRows` is how many rows a
 * PageUp/PageDown jumps.
 */
export function moveFocus(
  key: string,
  ctrl: boolean,
  index: number,
  columns: number,
  total: number,
  pageRows: number,
): number | null {
  if (total === 0) return null;
  const last = total - 1;
  const clamp = (i: number) => Math.min(last, Math.max(0, i));
  switch (key) {
    case 'ArrowRight':
      return clamp(index + 1);
    case 'ArrowLeft':
      return clamp(index - 1);
    case 'ArrowDown':
      return index + columns <= last ? index + columns : index;
    case 'ArrowUp':
      return index - columns >= 0 ? index - columns : index;
    case 'PageDown':
      return clamp(index + columns * pageRows);
    case 'PageUp':
      return clamp(index - columns * pageRows);
    case 'Home':
      return ctrl ? 0 : index - (index % columns);
    case 'End':
      return ctrl ? last : clamp(index - (index % columns) + columns - 1);
    default:
      return null;
  }
}
