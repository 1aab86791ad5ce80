import { randomBytes, randomUUID } from 'node:crypto';
import { normaliseBaseUrl } from './base-url.js';
import { InvalidApiKeyError } from './credential-errors.js';
import type { SecureStore } from './secure-store.js';

/** The variable that supplies a key for one run; it is never stored. */
export const API_KEY_ENV = 'LABELDESK_API_KEY';
const DEVICE_ID_SETTING = 'deviceId';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
// Not a URL, so it can never collide with a real account.
const PROBE_ACCOUNT = 'labeldesk-write-probe';

/** Plain, non-secret settings (LibraryStore.settings fits). Secrets never go here. */
export interface SettingsStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** Mints a trial key: a device session, then an SDK key bought with its token. */
export interface TrialIssuer {
  createSession(deviceId: string): Promise<{ token: string }>;
  exchangeSdkKey(
    sessionToken: string,
  ): Promise<{ key: string; frames: number; expiresAt: string | null }>;
}

export interface CredentialsOptions {
  store: SecureStore;
  /** Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  settings: SettingsStore;
}

export interface ResolvedKey {
  key: string;
  source: 'env' | 'keychain';
}

/** Keys must fit in an `Authorization: Bearer …` header. */
function checkKey(key: string): string {
  if (key.length === 0) throw new InvalidApiKeyError('it is empty');
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new InvalidApiKeyError('it contains spaces, line breaks or non-ASCII characters');
  }
  return key;
}

/**
 * API keys per service base URL. They live in the OS keychain and nowhere else: when the keychain
 * is unavailable the store's KeychainUnavailableError propagates and nothing is written anywhere.
 */
export class Credentials {
  private readonly store: SecureStore;
  private readonly env: NodeJS.ProcessEnv;
  private readonly settings: SettingsStore;
  /** Serialises first use per account so two callers cannot mint two embedded keys. */
  private readonly embeddedPending = new Map<string, Promise<string>>();

  constructor(options: CredentialsOptions) {
    this.store = options.store;
    this.env = options.env ?? process.env;
    this.settings = options.settings;
  }

  /**
   * The key to use for `baseUrl`: LABELDESK_API_KEY when set (the keychain is not even touched,
   * so it works on machines without one), else the keychain's, else undefined.
   */
  async resolveKey(baseUrl: string): Promise<ResolvedKey | undefined> {
    const account = normaliseBaseUrl(baseUrl);
    const fromEnv = this.env[API_KEY_ENV]?.trim();
    if (fromEnv) return { key: checkKey(fromEnv), source: 'env' };
    const stored = await this.store.get(account);
    return stored ? { key: stored, source: 'keychain' } : undefined;
  }

  async saveKey(baseUrl: string, key: string): Promise<void> {
    const account = normaliseBaseUrl(baseUrl);
    await this.store.set(account, checkKey(key.trim()));
  }

  /** True when a stored key was removed. */
  async forget(baseUrl: string): Promise<boolean> {
    return this.store.delete(normaliseBaseUrl(baseUrl));
  }

  /** A stable random id for this install, sent when opening trial sessions; not a secret. */
  deviceId(): string {
    const existing = this.settings.get(DEVICE_ID_SETTING);
    if (existing && UUID_V4.test(existing)) return existing;
    const id = randomUUID();
    this.settings.set(DEVICE_ID_SETTING, id);
    return id;
  }

  /**
   * The embedded service's key: created (`ldk_` + 32 random bytes, base64url) and stored in the
   * keychain on first use, the same on every later call. LABELDESK_API_KEY is deliberately not
   * consulted: it is meant for a hosted service, and the embedded one only knows keys it minted.
   */
  ensureEmbeddedKey(baseUrlAccount: string): Promise<string> {
    const account = normaliseBaseUrl(baseUrlAccount);
    let pending = this.embeddedPending.get(account);
    if (!pending) {
      pending = this.createEmbeddedKey(account).finally(() => {
        this.embeddedPending.delete(account);
      });
      this.embeddedPending.set(account, pending);
    }
    return pending;
  }

  /**
   * Trial sign-up: device session → SDK key → keychain. The session token lives only in this
   * call. The keychain is probed for writing first, because a trial key minted and then lost
   * (it may not be written anywhere else) would burn this device's trial.
   */
  async loginWithTrial(
    baseUrl: string,
    issuer: TrialIssuer,
  ): Promise<{ frames: number; expiresAt: string | null }> {
    const account = normaliseBaseUrl(baseUrl);
    await this.store.set(PROBE_ACCOUNT, 'probe');
    await this.store.delete(PROBE_ACCOUNT);
    const session = await issuer.createSession(this.deviceId());
    const sdk = await issuer.exchangeSdkKey(session.token);
    await this.store.set(account, checkKey(sdk.key));
    return { frames: sdk.frames, expiresAt: sdk.expiresAt };
  }

  private async createEmbeddedKey(account: string): Promise<string> {
    const existing = await this.store.get(account);
    if (existing) return existing;
    const key = `ldk_${randomBytes(32).toString('base64url')}`;
    await this.store.set(account, key);
    return key;
  }
}
