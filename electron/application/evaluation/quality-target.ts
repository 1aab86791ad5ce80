/**
 * The person's target precision, one stored setting per solution (issue 13 §3): the Quality
 * screen shows and changes it, and Review priority is calibrated with it.
 */
import type { SettingsPort, SettingsReader } from '../../core/store/store-ports.js';
import { TargetPrecision } from '../../shared/contract/index.js';
import { readSetting } from '../stored-setting.js';

/** The target before a person chooses one. */
export const DEFAULT_TARGET_PRECISION = 0.95;

const settingKey = (solution: string) => `quality.targetPrecision.${solution}`;

export function storedTarget(
  store: SettingsReader,
  solution: string,
  log?: (line: string) => void,
): number {
  return readSetting(store, settingKey(solution), TargetPrecision, log) ?? DEFAULT_TARGET_PRECISION;
}

export function storeTarget(store: SettingsPort, solution: string, target: number): void {
  store.settings.set(settingKey(solution), JSON.stringify(target));
}
