/** A colour per class, stable across items and sessions (a hash of the label into a palette). */
const PALETTE = [
  '#ffb020',
  '#3ddc97',
  '#ff6b6b',
  '#4dabf7',
  '#f783ac',
  '#ffd43b',
  '#a9e34b',
  '#b197fc',
  '#66d9e8',
  '#ff922b',
  '#e599f7',
  '#94d82d',
];

const cache = new Map<string, string>();

export function classColour(label: string): string {
  let c = cache.get(label);
  if (c) return c;
  let h = 2166136261;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 16777619);
  c = PALETTE[(h >>> 0) % PALETTE.length] ?? '#ffb020';
  cache.set(label, c);
  return c;
}
