export { normaliseBaseUrl } from './base-url.js';
export {
  InvalidApiKeyError,
  InvalidBaseUrlError,
  KeychainUnavailableError,
  type KeychainFailure,
} from './credential-errors.js';
export {
  API_KEY_ENV,
  Credentials,
  type CredentialsOptions,
  type ResolvedKey,
  type SessionKey,
  type SettingsStore,
  type TrialIssuer,
} from './credentials.js';
export { KeytarStore, type KeytarModule, type KeytarStoreOptions } from './keytar-store.js';
export { redactSecrets } from './redact-secrets.js';
export { KEYCHAIN_SERVICE, type SecureStore } from './secure-store.js';
