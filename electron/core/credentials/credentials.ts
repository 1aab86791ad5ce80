import { randomBytes, randomUUID } from 'node:crypto';
import { normaliseBaseUrl } from './base-url.js';
import { InvalidApiKeyError, KeychainUnavailableError } from './credential-errors.js';
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
  ): Promise<{ key: string; frames: number | null; expiresAt: string | null }>;
}

export interface CredentialsOptions {
  store: SecureStore;
  /** Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  settings: SettingsStore;
}

/** Where the embedded service's key of this session is kept. */
export interface SessionKey {
  key: string;
  kept: 'keychain' | 'memory';
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
  /** Embedded keys of this session on a machine without a keychain; never written anywhere. */
  private readonly memoryKeys = new Map<string, string>();

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
   * The embedded service's key for this session: the keychain's, or, when there is no usable
   * keychain (a fresh Linux box without a Secret Service), a new key held in memory by this object
   * for as long as it lives. The embedded service is local, so a session key loses nothing but
   * continuity: it is a new key with a new grant each session, and a clip job left open by an
   * earlier session belongs to that session's key. Hosted keys have no such fallback.
   */
  async embeddedKeyForSession(baseUrlAccount: string): Promise<SessionKey> {
    const account = normaliseBaseUrl(baseUrlAccount);
    const inMemory = this.memoryKeys.get(account);
    if (inMemory) return { key: inMemory, kept: 'memory' };
    try {
      return { key: await this.ensureEmbeddedKey(account), kept: 'keychain' };
    } catch (err) {
      if (!(err instanceof KeychainUnavailableError)) throw err;
      const key = this.memoryKeys.get(account) ?? newEmbeddedKey();
      this.memoryKeys.set(account, key);
      return { key, kept: 'memory' };
    }
  }

  /**
   * Trial sign-up: device session → SDK key → keychain. The session token lives only in this
   * call. The keychain is probed for writing first, because a trial key minted and then lost
   * (it may not be written anywhere else) would burn this device's trial.
   */
  async loginWithTrial(
    baseUrl: string,
    issuer: TrialIssuer,
  ): Promise<{ frames: number | null; expiresAt: string | null }> {
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
    const key = newEmbeddedKey();
    await this.store.set(account, key);
    return key;
  }
}

const newEmbeddedKey = () => `ldk_${randomBytes(32).toString('base64url')}`;
