/** A grid cell's accessible name: the file name first, then what the badges show. */
import type { LibraryItem } from '../../../../electron/shared/contract/index.js';

export function tileLabel(item: LibraryItem): string {
  const parts = [item.name];
  if (item.boxes !== null) parts.push(`${item.boxes} ${item.boxes === 1 ? 'box' : 'boxes'}`);
  parts.push(item.status);
  if (item.reviewed) parts.push('reviewed');
  else if (item.pendingReview > 0) parts.push(`${item.pendingReview} to review`);
  if (item.byRule > 0) parts.push(`${item.byRule} accepted by rule`);
  if (item.kind === 'video') parts.push('clip');
  return parts.join(', ');
}
