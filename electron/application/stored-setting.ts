/**
 * Settings kept in the library as JSON are read back through a schema: a value written by an
 * older or newer build, or edited by hand, falls back to the default instead of flowing on as a
 * wrongly typed object.
 */
import type { z } from 'zod';
import type { SettingsReader } from '../core/store/store-ports.js';

const reported = new Set<string>();

export function readSetting<S extends z.ZodType>(
  store: SettingsReader,
  key: string,
  schema: S,
  log?: (line: string) => void,
): z.infer<S> | undefined {
  const raw = store.settings.get(key);
  if (raw === undefined) return undefined;
  // Read on every get: say what is wrong with a stored value once, not each time.
  const report = (why: string) => {
    if (reported.has(`${key}\0${raw}`)) return;
    reported.add(`${key}\0${raw}`);
    log?.(`settings: ${key} ${why}; using the default`);
  };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    report('is not JSON');
    return undefined;
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  report(`does not fit this version (${parsed.error.issues[0]?.message ?? 'invalid'})`);
  return undefined;
}
