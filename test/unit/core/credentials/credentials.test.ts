import { describe, expect, it } from 'vitest';
import {
  Credentials,
  type TrialIssuer,
} from '../../../../electron/core/credentials/credentials.js';
import {
  InvalidApiKeyError,
  KeychainUnavailableError,
} from '../../../../electron/core/credentials/credential-errors.js';
import { MemoryStore } from '../../../../electron/core/credentials/memory-store.js';

const HOSTED = 'https://api.example.com/v1';

function mapSettings() {
  const values = new Map<string, string>();
  return {
    values,
    get: (k: string) => values.get(k),
    set: (k: string, v: string) => void values.set(k, v),
  };
}

function setup(env: NodeJS.ProcessEnv = {}) {
  const store = new MemoryStore();
  const settings = mapSettings();
  return { store, settings, credentials: new Credentials({ store, env, settings }) };
}

describe('Credentials.resolveKey', () => {
  it('returns undefined when no key is stored or supplied', async () => {
    const { credentials } = setup();
    expect(await credentials.resolveKey(HOSTED)).toBeUndefined();
  });

  it('reads the keychain under the normalised base URL', async () => {
    const { credentials, store } = setup();
    await credentials.saveKey('HTTPS://API.Example.com:443/v1/', 'ldk_stored');
    expect([...store.entries]).toEqual([[HOSTED, 'ldk_stored']]);
    expect(await credentials.resolveKey(HOSTED)).toEqual({ key: 'ldk_stored', source: 'keychain' });
  });

  it('prefers LABELDESK_API_KEY and never stores it', async () => {
    const { credentials, store, settings } = setup({ LABELDESK_API_KEY: ' ldk_from_env \n' });
    await store.set(HOSTED, 'ldk_stored');
    expect(await credentials.resolveKey(HOSTED)).toEqual({ key: 'ldk_from_env', source: 'env' });
    expect([...store.entries.values()]).toEqual(['ldk_stored']);
    expect([...settings.values.values()].join()).not.toContain('ldk_from_env');
  });

  it('uses LABELDESK_API_KEY even when the keychain is unavailable', async () => {
    const { credentials, store } = setup({ LABELDESK_API_KEY: 'ldk_from_env' });
    store.unavailable = true;
    expect(await credentials.resolveKey(HOSTED)).toEqual({ key: 'ldk_from_env', source: 'env' });
  });

  it('ignores an empty LABELDESK_API_KEY', async () => {
    const { credentials, store } = setup({ LABELDESK_API_KEY: '  ' });
    await store.set(HOSTED, 'ldk_stored');
    expect((await credentials.resolveKey(HOSTED))?.source).toBe('keychain');
  });
});

describe('Credentials.saveKey and forget', () => {
  it('refuses keys that cannot go in a header, without echoing them', async () => {
    const { credentials, store } = setup();
    await expect(credentials.saveKey(HOSTED, '')).rejects.toBeInstanceOf(InvalidApiKeyError);
    const err = await credentials.saveKey(HOSTED, 'ldk_a b').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidApiKeyError);
    expect((err as Error).message).not.toContain('ldk_a');
    expect(store.entries.size).toBe(0);
  });

  it('forget deletes the key and reports whether there was one', async () => {
    const { credentials } = setup();
    await credentials.saveKey(HOSTED, 'ldk_stored');
    expect(await credentials.forget(`${HOSTED}/`)).toBe(true);
    expect(await credentials.resolveKey(HOSTED)).toBeUndefined();
    expect(await credentials.forget(HOSTED)).toBe(false);
  });

  it('with no keychain, fails with the fix and writes the key nowhere', async () => {
    const { credentials, store, settings } = setup();
    store.unavailable = true;
    const err = await credentials.saveKey(HOSTED, 'ldk_secret').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeychainUnavailableError);
    expect((err as Error).message).toContain('LABELDESK_API_KEY');
    expect((err as Error).message).not.toContain('ldk_secret');
    expect(settings.values.size).toBe(0);
  });
});

describe('Credentials.deviceId', () => {
  it('is a UUID v4, stable across calls and instances sharing settings', () => {
    const { credentials, settings, store } = setup();
    const id = credentials.deviceId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(credentials.deviceId()).toBe(id);
    expect(new Credentials({ store, settings, env: {} }).deviceId()).toBe(id);
    expect(settings.values.get('deviceId')).toBe(id);
  });

  it('replaces a corrupt stored value', () => {
    const { credentials, settings } = setup();
    settings.set('deviceId', 'not-a-uuid');
    expect(credentials.deviceId()).not.toBe('not-a-uuid');
  });
});

describe('Credentials.ensureEmbeddedKey', () => {
  const EMBEDDED = 'http://127.0.0.1:48123';

  it('creates an ldk_ key of 32 random bytes once, then returns the same one', async () => {
    const { credentials, store } = setup();
    const key = await credentials.ensureEmbeddedKey(`${EMBEDDED}/`);
    expect(key).toMatch(/^ldk_[A-Za-z0-9_-]{43}$/);
    expect(store.entries.get(EMBEDDED)).toBe(key);
    expect(await credentials.ensureEmbeddedKey(EMBEDDED)).toBe(key);
  });

  it('mints a single key when first calls overlap', async () => {
    const { credentials } = setup();
    const keys = await Promise.all([1, 2, 3].map(() => credentials.ensureEmbeddedKey(EMBEDDED)));
    expect(new Set(keys).size).toBe(1);
  });

  it('ignores LABELDESK_API_KEY, which is meant for a hosted service', async () => {
    const { credentials } = setup({ LABELDESK_API_KEY: 'ldk_from_env' });
    expect(await credentials.ensureEmbeddedKey(EMBEDDED)).not.toBe('ldk_from_env');
  });
});

describe('Credentials.embeddedKeyForSession', () => {
  const EMBEDDED = 'http://labeldesk-embedded.invalid';

  it('uses the keychain when there is one', async () => {
    const { credentials, store } = setup();
    const got = await credentials.embeddedKeyForSession(EMBEDDED);
    expect(got.kept).toBe('keychain');
    expect(store.entries.get(EMBEDDED)).toBe(got.key);
  });

  it('without a keychain, keeps one key in memory for the session and writes it nowhere', async () => {
    const { credentials, store, settings } = setup();
    store.unavailable = true;
    const first = await credentials.embeddedKeyForSession(EMBEDDED);
    expect(first).toEqual({
      key: expect.stringMatching(/^ldk_[A-Za-z0-9_-]{43}$/),
      kept: 'memory',
    });
    expect(await credentials.embeddedKeyForSession(EMBEDDED)).toEqual(first);
    expect(store.entries.size).toBe(0);
    expect(JSON.stringify([...settings.values])).not.toContain(first.key);
    // Hosted keys get no such fallback: the keychain's error reaches the caller.
    await expect(credentials.resolveKey('https://hosted.example')).rejects.toThrow(
      /keychain is not available/,
    );
  });
});

describe('Credentials.loginWithTrial', () => {
  function fakeIssuer(calls: string[]): TrialIssuer {
    return {
      createSession: async (deviceId) => {
        calls.push(`session:${deviceId}`);
        return { token: 'lds_session' };
      },
      exchangeSdkKey: async (token) => {
        calls.push(`exchange:${token}`);
        return { key: 'ldt_trialkey', frames: 500, expiresAt: '2030-01-01T00:00:00Z' };
      },
    };
  }

  it('opens a session for this device, stores the SDK key, never the session token', async () => {
    const { credentials, store, settings } = setup();
    const calls: string[] = [];
    const result = await credentials.loginWithTrial(`${HOSTED}/`, fakeIssuer(calls));
    expect(result).toEqual({ frames: 500, expiresAt: '2030-01-01T00:00:00Z' });
    expect(calls).toEqual([`session:${credentials.deviceId()}`, 'exchange:lds_session']);
    expect([...store.entries]).toEqual([[HOSTED, 'ldt_trialkey']]);
    expect([...settings.values.values()].join()).not.toContain('lds_');
    expect(await credentials.resolveKey(HOSTED)).toEqual({
      key: 'ldt_trialkey',
      source: 'keychain',
    });
  });

  it('does not spend the trial when the keychain cannot store the key', async () => {
    const { credentials, store } = setup();
    store.unavailable = true;
    const calls: string[] = [];
    await expect(credentials.loginWithTrial(HOSTED, fakeIssuer(calls))).rejects.toBeInstanceOf(
      KeychainUnavailableError,
    );
    expect(calls).toEqual([]);
  });
});
