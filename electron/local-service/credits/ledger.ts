/** Frame accounting: reserve before work, settle after it, so concurrent calls can never overdraw. */
import { ApiError } from '../http/api-error.js';
import type { ServiceLimits } from '../config.js';
import type { CredentialRow, CredentialsRepo } from '../store/credentials-repo.js';

const HOUR_MS = 3_600_000;
export const hourOf = (ms: number) => Math.floor(ms / HOUR_MS);
export const dayOf = (ms: number) => Math.floor(ms / 86_400_000);

export interface Reservation {
  credentialId: string;
  frames: number;
  hour: number;
}

export interface CreditState {
  spent: number;
  remaining: number;
  hourRemaining: number;
}

export class CreditLedger {
  constructor(
    private readonly repo: CredentialsRepo,
    private readonly limits: Pick<ServiceLimits, 'hourFrames'>,
    private readonly now: () => number,
  ) {}

  balance(cred: CredentialRow): { remaining: number; hourRemaining: number } {
    const remaining = Math.max(0, cred.frames_granted - cred.frames_spent - cred.frames_reserved);
    const used = this.repo.hourUsage(cred.id, hourOf(this.now()));
    return { remaining, hourRemaining: Math.max(0, this.limits.hourFrames - used) };
  }

  /** Reserves `frames` or refuses with 402 (not enough left) or 429 (hour used up, Retry-After). */
  reserve(credentialId: string, frames: number): Reservation {
    this.assertAffordable(credentialId, frames);
    const hour = hourOf(this.now());
    this.repo.reserve(credentialId, frames, hour);
    return { credentialId, frames, hour };
  }

  /** Refuses as `reserve` would, without reserving: lets a request fail before its upload is read. */
  assertAffordable(credentialId: string, frames: number): void {
    const cred = this.repo.get(credentialId);
    if (!cred) throw new ApiError(401, 'invalid_token', 'The token is not known to this service.');
    const { remaining, hourRemaining } = this.balance(cred);
    if (remaining < frames) {
      throw new ApiError(
        402,
        'insufficient_frames',
        `This call costs ${frames} frames and the token has ${remaining} left.`,
      );
    }
    if (hourRemaining < frames) {
      const retryAfter = Math.max(1, Math.ceil((HOUR_MS - (this.now() % HOUR_MS)) / 1000));
      throw new ApiError(
        429,
        'hourly_frames_exhausted',
        `This call costs ${frames} frames and ${hourRemaining} are left this hour; try again in ${retryAfter} s.`,
        { 'Retry-After': String(retryAfter) },
      );
    }
  }

  /** Charges `spent` (≤ reserved) and gives the rest back. */
  settle(reservation: Reservation, spent: number): void {
    const charged = Math.min(Math.max(0, spent), reservation.frames);
    this.repo.settle(reservation.credentialId, reservation.frames, charged, reservation.hour);
  }

  state(credentialId: string, spent: number): CreditState {
    const cred = this.repo.get(credentialId);
    if (!cred) return { spent, remaining: 0, hourRemaining: 0 };
    return { spent, ...this.balance(cred) };
  }
}
