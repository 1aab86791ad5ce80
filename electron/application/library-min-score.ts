/**
 * The library's minimum score (issue 27 §1): the score below which boxes are neither shown nor
 * exported unless a person asks for them. The embedded service keeps boxes down to a lower floor
 * it publishes, so evaluation, auto-accept, review priority and the tracker see them all; this
 * setting decides only what a person sees. A box without a score (drawn by a person) passes it.
 */
import type { SettingsPort, SettingsReader } from '../core/store/store-ports.js';
import { MinScore } from '../shared/contract/index.js';
import { readSetting } from './stored-setting.js';

/** What the library showed before the service kept low-score boxes: a person sees the same. */
export const DEFAULT_MIN_SCORE = 0.3;

const SETTING = 'library.minScore';

export function storedMinScore(store: SettingsReader, log?: (line: string) => void): number {
  return readSetting(store, SETTING, MinScore, log) ?? DEFAULT_MIN_SCORE;
}

export function storeMinScore(store: SettingsPort, minScore: number): number {
  store.settings.set(SETTING, JSON.stringify(MinScore.parse(minScore)));
  return storedMinScore(store);
}
