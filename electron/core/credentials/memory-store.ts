import { KeychainUnavailableError } from './credential-errors.js';
import type { SecureStore } from './secure-store.js';

/** Test twin of the keychain. Never used by the app: keys must live only in the OS keychain. */
export class MemoryStore implements SecureStore {
  readonly entries = new Map<string, string>();
  /** When set, every call fails as a machine without a Secret Service would. */
  unavailable = false;

  async get(account: string): Promise<string | undefined> {
    this.check();
    return this.entries.get(account);
  }

  async set(account: string, secret: string): Promise<void> {
    this.check();
    this.entries.set(account, secret);
  }

  async delete(account: string): Promise<boolean> {
    this.check();
    return this.entries.delete(account);
  }

  private check(): void {
    if (this.unavailable) {
      throw new KeychainUnavailableError('unreachable', 'memory store set to unavailable');
    }
  }
}
