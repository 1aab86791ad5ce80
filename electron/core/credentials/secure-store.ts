/**
 * The OS keychain behind a small interface (GitHub Desktop's ISecureStore): `KeytarStore` is the
 * real one, `MemoryStore` the twin for unit tests. Accounts are normalised service base URLs.
 */
export interface SecureStore {
  /** The stored secret, or undefined when there is none. */
  get(account: string): Promise<string | undefined>;
  set(account: string, secret: string): Promise<void>;
  /** True when something was deleted. */
  delete(account: string): Promise<boolean>;
}

/** keytar's service name: every LabelDesk secret is stored under it. */
export const KEYCHAIN_SERVICE = 'labeldesk';
