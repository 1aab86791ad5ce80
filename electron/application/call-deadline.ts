/**
 * The least time every call to a service is given (issue 23 §1: "a floor the person can change"):
 * a setting of the library, changed on the Service screen or with `labeldesk config
 * call-deadline`; LABELDESK_CALL_DEADLINE_S overrides it for one process (a script, a test).
 * Read again at most once a second (a settings row and JSON for each of a run's thousands of calls
 * was ~20 ms of a 500-file run), and at once after this process changes it, so a change applies
 * to the next call of a connection already open.
 */
import type { SettingsPort, SettingsReader } from '../core/store/store-ports.js';
import { UsageError } from './usage-error.js';

export const CALL_DEADLINE_ENV = 'LABELDESK_CALL_DEADLINE_S';
export const CALL_DEADLINE_SETTING = 'service.callDeadlineS';
export const DEFAULT_CALL_DEADLINE_S = 120;
export const MIN_CALL_DEADLINE_S = 1;
export const MAX_CALL_DEADLINE_S = 86_400;

/** How long a floor read stays in use; another process's change applies after at most this. */
const REREAD_MS = 1000;
/** Bumped by each change made in this process, so its own change applies to the next call. */
let settingChanges = 0;

// Checked by hand, not with zod: `label` reads this at start-up and loads no schema library.
const inRange = (v: unknown): v is number =>
  typeof v === 'number' && v >= MIN_CALL_DEADLINE_S && v <= MAX_CALL_DEADLINE_S;

/** The stored setting; a value that is not JSON or out of range falls back to the default. */
function storedSeconds(store: SettingsReader): number | undefined {
  const raw = store.settings.get(CALL_DEADLINE_SETTING);
  if (raw === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return inRange(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export interface CallDeadline {
  seconds: number;
  /** Where it comes from: nobody changed it, the library's setting, or the environment. */
  source: 'default' | 'setting' | 'environment';
}

/** What the person is told when a value is out of range. */
export function deadlineRangeText(what: string, raw: string): string {
  return `${what} must be a number of seconds from ${MIN_CALL_DEADLINE_S} to ${MAX_CALL_DEADLINE_S} (the least time a call to the service is given), not "${raw}".`;
}

function envSeconds(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env[CALL_DEADLINE_ENV]?.trim();
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (!inRange(seconds)) throw new UsageError(deadlineRangeText(CALL_DEADLINE_ENV, raw));
  return seconds;
}

export function callDeadlineOf(store: SettingsReader, env: NodeJS.ProcessEnv): CallDeadline {
  const fromEnv = envSeconds(env);
  if (fromEnv !== undefined) return { seconds: fromEnv, source: 'environment' };
  // null: set back to the default (the settings table has no delete).
  const stored = storedSeconds(store);
  if (stored !== undefined) return { seconds: stored, source: 'setting' };
  return { seconds: DEFAULT_CALL_DEADLINE_S, source: 'default' };
}

/** Stores the setting (null: back to the default) and says what applies now. */
export function setCallDeadline(
  store: SettingsPort,
  env: NodeJS.ProcessEnv,
  seconds: number | null,
): CallDeadline {
  settingChanges++;
  if (seconds === null) store.settings.set(CALL_DEADLINE_SETTING, 'null');
  else {
    if (!inRange(seconds))
      throw new UsageError(deadlineRangeText('The call deadline', String(seconds)));
    store.settings.set(CALL_DEADLINE_SETTING, JSON.stringify(seconds));
  }
  return callDeadlineOf(store, env);
}

/**
 * The floor a client reads at each call, in milliseconds. A bad LABELDESK_CALL_DEADLINE_S is
 * refused here, before anything is sent.
 */
export function callDeadlineFloor(store: SettingsReader, env: NodeJS.ProcessEnv): () => number {
  callDeadlineOf(store, env);
  let floorMs = 0;
  let readAt = -Infinity;
  let readChanges = -1;
  return () => {
    const now = performance.now();
    if (now - readAt >= REREAD_MS || readChanges !== settingChanges) {
      floorMs = Math.round(callDeadlineOf(store, env).seconds * 1000);
      readAt = now;
      readChanges = settingChanges;
    }
    return floorMs;
  };
}
