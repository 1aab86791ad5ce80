import { InvalidBaseUrlError } from './credential-errors.js';

/**
 * The keychain account for a service: lower-case scheme and host (WHATWG URL does that and drops
 * default ports), path kept as written, no trailing slash. `HTTPS://Api.Example.com:443/v1/` and
 * `https://api.example.com/v1` must find the same key.
 */
export function normaliseBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    // The input is not echoed: a malformed paste may well be a key.
    throw new InvalidBaseUrlError('not an absolute URL (expected e.g. https://api.example.com)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidBaseUrlError(`unsupported scheme "${url.protocol}" (use http or https)`);
  }
  // Credentials or a query in the account name would put a secret into the keychain's plain
  // attributes (and into `secret-tool search` output).
  if (url.username || url.password) {
    throw new InvalidBaseUrlError('it must not contain a user name or password');
  }
  if (url.search || url.hash) {
    throw new InvalidBaseUrlError('it must not contain a query or fragment');
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}
