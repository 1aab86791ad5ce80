/**
 * Keys for a hosted service, shared by the app's service switch and `labeldesk login`: a key is
 * checked against the service before it is kept, and a trial key comes from a browser session.
 */
import { Credentials, KeytarStore } from '../core/credentials/index.js';
import { ServiceClient } from '../core/service/service-client.js';
import type { AppContext } from './app-context.js';

/** Checks `key` at the service (a typo is told at once), then keeps it in the keychain. */
export async function saveCheckedKey(
  app: Pick<AppContext, 'credentials'>,
  baseUrl: string,
  key: string,
): Promise<{ audience: string; remaining: number }> {
  const status = await new ServiceClient({ baseUrl, apiKey: key }).keyStatus();
  await app.credentials.saveKey(baseUrl, key);
  return status;
}

/** Gets a trial key through a session and keeps it in the keychain. */
export function startTrialKey(
  app: Pick<AppContext, 'credentials'>,
  baseUrl: string,
): Promise<{ frames: number | null; expiresAt: string | null }> {
  const client = new ServiceClient({ baseUrl });
  return app.credentials.loginWithTrial(baseUrl, {
    createSession: (deviceId) => client.session(deviceId),
    exchangeSdkKey: async (token) => {
      const k = await client.withApiKey(token).sdkKey();
      return { key: k.key, frames: k.frames, expiresAt: k.expiresAt ?? null };
    },
  });
}

/** Whether the keychain itself holds a key for the service (LABELDESK_API_KEY left out). */
export async function keychainHoldsKey(app: AppContext, service: string): Promise<boolean> {
  const keychainOnly = new Credentials({
    store: new KeytarStore(),
    env: {},
    settings: app.store.settings,
  });
  return Boolean(await keychainOnly.resolveKey(service));
}
