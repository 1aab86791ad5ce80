/** Typed arrays grown as a reader fills them (a million boxes or annotations, not known ahead). */

/** `a` if it holds `need` items, else a copy at least twice as long. */
export function grown<T extends Float64Array | Uint32Array | Uint8Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  const b = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}
