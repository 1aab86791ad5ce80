import { redactSecrets } from './redact-secrets.js';

/** Why the keychain could not be used: keytar's native module failed to load, or the call failed. */
export type KeychainFailure = 'not-installed' | 'unreachable';

/** How to get a working keychain on each platform; the message must tell the user what to do. */
function keychainFix(platform: NodeJS.Platform): string {
  const oneRun = 'or set LABELDESK_API_KEY to use a key for one run without storing it';
  if (platform === 'darwin') return `Unlock your login keychain in Keychain Access, ${oneRun}.`;
  if (platform === 'win32') return `Check that Windows Credential Manager is available, ${oneRun}.`;
  return (
    'Install and unlock gnome-keyring (or another Secret Service provider such as KeePassXC) ' +
    `in a D-Bus session, ${oneRun}.`
  );
}

/**
 * No OS keychain is usable. API keys are never written anywhere else instead, so callers surface
 * this to the user; the message names the fix and never contains a secret.
 */
export class KeychainUnavailableError extends Error {
  readonly code = 'keychain_unavailable';
  readonly failure: KeychainFailure;

  constructor(failure: KeychainFailure, detail: string, platform = process.platform) {
    super(
      `The OS keychain is not available, so the API key cannot be stored or read ` +
        `(${redactSecrets(detail)}). ${keychainFix(platform)}`,
    );
    this.name = 'KeychainUnavailableError';
    this.failure = failure;
  }
}

/** A service base URL that cannot be used as a keychain account. */
export class InvalidBaseUrlError extends Error {
  readonly code = 'invalid_base_url';

  constructor(reason: string) {
    super(`Invalid service base URL: ${redactSecrets(reason)}`);
    this.name = 'InvalidBaseUrlError';
  }
}

/** An API key that is empty or could not be sent in an HTTP header. */
export class InvalidApiKeyError extends Error {
  readonly code = 'invalid_api_key';

  constructor(reason: string) {
    // The key itself is never part of the message.
    super(`Invalid API key: ${reason}`);
    this.name = 'InvalidApiKeyError';
  }
}
