import { describe, expect, it } from 'vitest';
import {
  PAGE_SIZE,
  TILE_GAP,
  TILE_WIDTH,
  columnsFor,
  moveFocus,
  pagesFor,
  rowCount,
} from '../../../renderer/src/features/library/grid-geometry.js';

describe('grid geometry', () => {
  it('fits as many fixed tiles as the width allows, at least one', () => {
    expect(columnsFor(0)).toBe(1);
    expect(columnsFor(TILE_WIDTH)).toBe(1);
    expect(columnsFor(TILE_WIDTH * 4 + TILE_GAP * 3)).toBe(4);
    expect(columnsFor(TILE_WIDTH * 4 + TILE_GAP * 3 - 1)).toBe(3);
  });

  it('sizes 100,000 items into rows and fetches only the pages in view', () => {
    expect(rowCount(100_000, 7)).toBe(14_286);
    expect(pagesFor(0, 41)).toEqual([0]);
    expect(pagesFor(190, 230)).toEqual([0, 1]);
    expect(pagesFor(99_950, 99_999)).toEqual([Math.floor(99_950 / PAGE_SIZE)]);
    expect(pagesFor(5, 4)).toEqual([]);
  });

  it('moves focus by key, staying inside the items', () => {
    // 10 items in rows of 4: 0-3, 4-7, 8-9.
    const move = (key: string, i: number, ctrl = false) => moveFocus(key, ctrl, i, 4, 10, 2);
    expect(move('ArrowRight', 3)).toBe(4);
    expect(move('ArrowRight', 9)).toBe(9);
    expect(move('ArrowLeft', 0)).toBe(0);
    expect(move('ArrowDown', 1)).toBe(5);
    expect(move('ArrowDown', 6)).toBe(6); // no item below in the short last row
    expect(move('ArrowUp', 9)).toBe(5);
    expect(move('ArrowUp', 2)).toBe(2);
    expect(move('Home', 6)).toBe(4);
    expect(move('End', 5)).toBe(7);
    expect(move('End', 8)).toBe(9);
    expect(move('Home', 6, true)).toBe(0);
    expect(move('End', 1, true)).toBe(9);
    expect(move('PageDown', 1)).toBe(9);
    expect(move('PageUp', 9)).toBe(1);
    expect(move('a', 1)).toBeNull();
    expect(moveFocus('ArrowRight', false, 0, 4, 0, 2)).toBeNull();
  });
});
