// The real keychain is exercised in test/integration/core/credentials; here, only how keytar's
// failures are turned into KeychainUnavailableError.
import { describe, expect, it } from 'vitest';
import { KeychainUnavailableError } from '../../../../electron/core/credentials/credential-errors.js';
import {
  KeytarStore,
  type KeytarModule,
} from '../../../../electron/core/credentials/keytar-store.js';

function fakeKeytar(overrides: Partial<KeytarModule> = {}): KeytarModule {
  const entries = new Map<string, string>();
  return {
    getPassword: async (s, a) => entries.get(`${s}|${a}`) ?? null,
    setPassword: async (s, a, p) => void entries.set(`${s}|${a}`, p),
    deletePassword: async (s, a) => entries.delete(`${s}|${a}`),
    ...overrides,
  };
}

describe('KeytarStore', () => {
  it('maps null to undefined and round-trips under its service', async () => {
    const store = new KeytarStore({ load: () => fakeKeytar() });
    expect(await store.get('https://a.test')).toBeUndefined();
    await store.set('https://a.test', 'ldk_x');
    expect(await store.get('https://a.test')).toBe('ldk_x');
    expect(await store.delete('https://a.test')).toBe(true);
  });

  it('turns a module that will not load into not-installed, and retries next time', async () => {
    let attempts = 0;
    const store = new KeytarStore({
      load: () => {
        attempts += 1;
        if (attempts === 1) throw new Error('libsecret-1.so.0: cannot open shared object file');
        return fakeKeytar();
      },
    });
    const err = await store.get('https://a.test').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeychainUnavailableError);
    expect((err as KeychainUnavailableError).failure).toBe('not-installed');
    expect((err as Error).message).toContain('libsecret');
    expect(await store.get('https://a.test')).toBeUndefined();
  });

  it('turns a D-Bus failure into unreachable with the fix, never echoing the secret', async () => {
    const store = new KeytarStore({
      load: () =>
        fakeKeytar({
          setPassword: async (_s, _a, password) => {
            throw new Error(`Cannot autolaunch D-Bus without X11 $DISPLAY (${password})`);
          },
        }),
    });
    const err = await store.set('https://a.test', 'ldk_secret').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeychainUnavailableError);
    const message = (err as Error).message;
    expect((err as KeychainUnavailableError).failure).toBe('unreachable');
    expect((err as KeychainUnavailableError).code).toBe('keychain_unavailable');
    expect(message).toContain('Cannot autolaunch D-Bus');
    expect(message).toMatch(/gnome-keyring/);
    expect(message).toContain('LABELDESK_API_KEY');
    expect(message).not.toContain('ldk_secret');
  });
});
