import { describe, expect, it } from 'vitest';
import {
  EMPTY_SELECTION,
  clickIntent,
  rangeBetween,
  replaceWith,
  toggle,
  withRange,
} from '../../../renderer/src/features/library/selection.js';

describe('grid selection', () => {
  it('maps modifiers to what a click does', () => {
    expect(clickIntent({ shift: false, ctrlOrMeta: false })).toBe('replace');
    expect(clickIntent({ shift: false, ctrlOrMeta: true })).toBe('toggle');
    expect(clickIntent({ shift: true, ctrlOrMeta: false })).toBe('range');
    expect(clickIntent({ shift: true, ctrlOrMeta: true })).toBe('range-add');
  });

  it('a plain click selects one item and anchors there; ctrl-click toggles', () => {
    const one = replaceWith(41, 7);
    expect([...one.ids]).toEqual([41]);
    expect(one.anchor).toBe(7);
    const two = toggle(one, 99, 12);
    expect([...two.ids].sort()).toEqual([41, 99]);
    const back = toggle(two, 41, 3);
    expect([...back.ids]).toEqual([99]);
    expect(back.anchor).toBe(3);
    // Steps never mutate the selection they were given.
    expect([...one.ids]).toEqual([41]);
  });

  it('a shift range covers anchor..index in either direction, as offset and limit', () => {
    expect(rangeBetween(10, 14)).toEqual({ offset: 10, limit: 5 });
    expect(rangeBetween(14, 10)).toEqual({ offset: 10, limit: 5 });
    expect(rangeBetween(null, 6)).toEqual({ offset: 6, limit: 1 });
  });

  it('a range replaces the selection, or adds to it with ctrl, keeping the anchor', () => {
    const start = toggle(replaceWith(1, 0), 50, 20);
    const replaced = withRange(start, [7, 8, 9], false);
    expect([...replaced.ids]).toEqual([7, 8, 9]);
    expect(replaced.anchor).toBe(20);
    const added = withRange(start, [7, 8], true);
    expect([...added.ids].sort((a, b) => a - b)).toEqual([1, 7, 8, 50]);
    expect(EMPTY_SELECTION.ids.size).toBe(0);
  });
});
