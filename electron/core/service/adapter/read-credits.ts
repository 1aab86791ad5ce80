/** `credits` of an answer: used when recognised; otherwise null and the spend comes from GET /key. */
import type { Credits } from './adapter-types.js';
import type { Notes } from './notes.js';
import { isObject, numberByName, squashedKeys } from './read-values.js';

/** Squashed alternative names (see squashName), ours first. */
const NAMES: Record<keyof Credits, readonly string[]> = {
  spent: ['spent', 'used', 'charged', 'cost', 'framesspent', 'framesused', 'frames'],
  remaining: ['remaining', 'left', 'balance', 'framesleft', 'framesremaining'],
  hourRemaining: [
    'hourremaining',
    'hourlyremaining',
    'remainingthishour',
    'hourleft',
    'hourframesleft',
  ],
  reserved: ['reserved', 'held', 'hold', 'framesreserved'],
};

export function readCredits(raw: unknown, field: string, notes: Notes): Credits | null {
  if (!isObject(raw)) {
    notes.notPublished(field, 'GET /key before and after the call for the spend');
    return null;
  }
  // Our own form costs one property read per field.
  if (typeof raw.spent === 'number' && typeof raw.remaining === 'number') {
    return {
      spent: raw.spent,
      remaining: raw.remaining,
      hourRemaining: typeof raw.hourRemaining === 'number' ? raw.hourRemaining : null,
      reserved: typeof raw.reserved === 'number' ? raw.reserved : null,
    };
  }
  const keys = squashedKeys(raw);
  const credits: Credits = {
    spent: numberByName(raw, keys, NAMES.spent),
    remaining: numberByName(raw, keys, NAMES.remaining),
    hourRemaining: numberByName(raw, keys, NAMES.hourRemaining),
    reserved: numberByName(raw, keys, NAMES.reserved),
  };
  if (credits.spent === null && credits.remaining === null && credits.hourRemaining === null) {
    notes.notPublished(field, 'GET /key before and after the call for the spend');
    return null;
  }
  if (credits.spent === null)
    notes.notPublished(`${field}.spent`, 'GET /key before and after the call');
  return credits;
}
