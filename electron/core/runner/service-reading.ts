/** The per-service reading setting (box x,y = corner or centre), kept in the library's settings. */
import { DEFAULT_READING, type ReadingSettings } from '../service/adapter/adapter-types.js';
import type { SettingsPort } from '../store/store-ports.js';

const key = (serviceUrl: string) => `service.reading:${serviceUrl}`;

export function readingOf(store: SettingsPort, serviceUrl: string): ReadingSettings {
  const saved = store.settings.get(key(serviceUrl));
  if (!saved) return DEFAULT_READING;
  const parsed = JSON.parse(saved) as Partial<ReadingSettings>;
  return { boxOrigin: parsed.boxOrigin === 'centre' ? 'centre' : 'corner' };
}

/**
 * The setting and whether anyone confirmed it: a person's choice is what is kept under the key
 * (`label --box-origin`, the Service screen), so an absent key means nobody has said.
 */
export function readingFor(store: SettingsPort, serviceUrl: string): ReadingSettings {
  const confirmed = store.settings.get(key(serviceUrl)) !== undefined;
  return { ...readingOf(store, serviceUrl), originConfirmed: confirmed };
}

/** Saves the setting; the caller then re-reads the kept raw answers (rereadRawAnswers). */
export function setReading(
  store: SettingsPort,
  serviceUrl: string,
  reading: ReadingSettings,
): void {
  store.settings.set(key(serviceUrl), JSON.stringify(reading));
}
