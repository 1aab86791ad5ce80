import { createRequire } from 'node:module';
import type * as keytarApi from 'keytar';
import { messageOf } from '../../shared/error-message.js';
import { KeychainUnavailableError } from './credential-errors.js';
import { KEYCHAIN_SERVICE, type SecureStore } from './secure-store.js';

/** The part of keytar we use; tests pass a fake loader to simulate a broken install. */
export type KeytarModule = Pick<typeof keytarApi, 'getPassword' | 'setPassword' | 'deletePassword'>;

export interface KeytarStoreOptions {
  /** keytar service name; `labeldesk` unless a test needs its own. */
  service?: string;
  /** Loads keytar; the default requires the native module on first use. */
  load?: () => KeytarModule;
}

// Loaded lazily (and through require, since keytar is CommonJS with a native addon) so that a
// missing libsecret or a failed build only matters when a key is actually needed, and then as a
// KeychainUnavailableError instead of a crash at start-up.
const defaultLoad = (): KeytarModule => createRequire(import.meta.url)('keytar') as KeytarModule;

/**
 * The real keychain: macOS Keychain, Windows Credential Manager, or the Secret Service on Linux
 * (attributes `service` and `account`, readable with `secret-tool`).
 */
export class KeytarStore implements SecureStore {
  private readonly service: string;
  private readonly load: () => KeytarModule;
  private keytar: KeytarModule | undefined;

  constructor(options: KeytarStoreOptions = {}) {
    this.service = options.service ?? KEYCHAIN_SERVICE;
    this.load = options.load ?? defaultLoad;
  }

  async get(account: string): Promise<string | undefined> {
    const keytar = this.module();
    const secret = await this.call(() => keytar.getPassword(this.service, account));
    return secret ?? undefined;
  }

  async set(account: string, secret: string): Promise<void> {
    const keytar = this.module();
    await this.call(() => keytar.setPassword(this.service, account, secret));
  }

  async delete(account: string): Promise<boolean> {
    const keytar = this.module();
    return this.call(() => keytar.deletePassword(this.service, account));
  }

  private module(): KeytarModule {
    if (this.keytar) return this.keytar;
    try {
      this.keytar = this.load();
    } catch (err) {
      // Not cached: installing libsecret and retrying must work without a restart.
      throw new KeychainUnavailableError(
        'not-installed',
        `keytar could not be loaded: ${messageOf(err)}`,
      );
    }
    return this.keytar;
  }

  // On Linux every keytar failure means the Secret Service is missing, locked or unreachable
  // (no D-Bus session, no provider, no default collection); treat them all as "unavailable".
  private async call<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      throw new KeychainUnavailableError('unreachable', messageOf(err));
    }
  }
}
