/**
 * The daily allowances of free frames per device and per network. Sessions and the trial keys they
 * are exchanged for both draw on them, so a device cannot farm free frames through either.
 */
import { ApiError } from '../http/api-error.js';
import type { ServiceLimits } from '../config.js';
import type { CredentialsRepo } from '../store/credentials-repo.js';
import { dayOf } from './ledger.js';

export interface PoolKeys {
  device: string;
  network: string;
}

export interface PoolGrant {
  frames: number;
  deviceLeft: number;
  networkLeft: number;
}

/**
 * Takes up to `wanted` frames from both pools of today (UTC); call inside a transaction. Refuses with
 * 429 and a Retry-After until the next UTC day when either pool is empty.
 */
export function drawFromPools(
  repo: CredentialsRepo,
  limits: Pick<ServiceLimits, 'deviceDayFrames' | 'networkDayFrames'>,
  keys: PoolKeys,
  wanted: number,
  now: number,
): PoolGrant {
  const day = dayOf(now);
  const deviceLeft = limits.deviceDayFrames - repo.poolUsage('device', keys.device, day);
  const networkLeft = limits.networkDayFrames - repo.poolUsage('network', keys.network, day);
  if (deviceLeft <= 0 || networkLeft <= 0) {
    const which = deviceLeft <= 0 ? 'device' : 'network';
    throw new ApiError(
      429,
      `${which}_frames_exhausted`,
      `This ${which} has used today's free frames; try again tomorrow (UTC).`,
      { 'Retry-After': String(Math.ceil((86_400_000 - (now % 86_400_000)) / 1000)) },
    );
  }
  const frames = Math.min(wanted, deviceLeft, networkLeft);
  repo.addPoolUsage('device', keys.device, day, frames);
  repo.addPoolUsage('network', keys.network, day, frames);
  return { frames, deviceLeft: deviceLeft - frames, networkLeft: networkLeft - frames };
}
