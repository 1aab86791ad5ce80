import { ApiError } from '../http/api-error.js';
import { hashSecret, sameHash } from '../../node-lib/tokens.js';
import type { CredentialRow, CredentialsRepo } from '../store/credentials-repo.js';

export const TOKEN_PREFIX = { api_key: 'ldk_', session: 'lds_', trial_key: 'ldt_' } as const;

/** Resolves the bearer token of a request to its credential, or refuses with 401. */
export function authenticate(
  header: string | undefined,
  repo: CredentialsRepo,
  now: number,
): CredentialRow {
  if (!header) {
    throw new ApiError(401, 'missing_token', 'Send Authorization: Bearer <token>.');
  }
  const match = /^Bearer ([A-Za-z0-9_-]{8,200})$/.exec(header.trim());
  if (!match?.[1]) {
    throw new ApiError(401, 'invalid_token', 'The Authorization header is not a bearer token.');
  }
  const hash = hashSecret(match[1]);
  const cred = repo.findByHash(hash);
  // The lookup is by digest, so timing reveals nothing of the secret; compare again in constant time anyway.
  if (!cred || !sameHash(cred.hash, hash)) {
    throw new ApiError(401, 'invalid_token', 'The token is not known to this service.');
  }
  if (cred.expires_at !== null && cred.expires_at <= now) {
    throw new ApiError(401, 'token_expired', 'The token has expired; get a new one.');
  }
  return cred;
}
