/**
 * Shortens a long path in the middle, where its least telling part is: the start (the drive or
 * share) and the end (the folder's own name) stay readable.
 */
export function middleEllipsis(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  if (max <= 1) return '…';
  const keep = max - 1;
  // The end carries the folder's name: give it the larger half.
  const head = Math.floor(keep / 2.5);
  const tail = keep - head;
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
}
