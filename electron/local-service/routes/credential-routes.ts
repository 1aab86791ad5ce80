/** Endpoints 4–6: sessions, key status, trial keys. */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TOKEN_PREFIX, authenticate } from '../auth/authenticate.js';
import { dayOf } from '../credits/ledger.js';
import { ApiError, badRequest } from '../http/api-error.js';
import { readJsonObject } from '../http/read-json.js';
import { sendJson } from '../http/respond.js';
import type { Route } from '../http/router.js';
import { hashSecret, newSecret } from '../../node-lib/tokens.js';
import type { ServiceContext } from '../service-context.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The fairness key of the caller's network: the IPv4 address, or the /64 of an IPv6 address. */
export function networkOf(req: IncomingMessage): string {
  const addr = (req.socket.remoteAddress ?? 'unknown').replace(/^::ffff:/, '');
  if (!addr.includes(':')) return addr;
  return `${addr.split(':').slice(0, 4).join(':')}::/64`;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function credentialRoutes(ctx: ServiceContext): Route[] {
  const { limits, times } = ctx.config;
  const untilTomorrow = () => String(Math.ceil((86_400_000 - (ctx.now() % 86_400_000)) / 1000));

  return [
    {
      method: 'POST',
      path: '/session',
      handler: async (req, res) => {
        const body = await readJsonObject(req);
        const { deviceId, turnstileToken } = body;
        if (typeof deviceId !== 'string' || !UUID_V4.test(deviceId)) {
          throw badRequest('invalid_device_id', 'deviceId must be a UUID v4.');
        }
        if (ctx.config.challengeToken !== undefined) {
          if (typeof turnstileToken !== 'string' || turnstileToken === '') {
            throw badRequest('challenge_required', 'This service demands a turnstileToken.');
          }
          if (!sameText(turnstileToken, ctx.config.challengeToken)) {
            throw new ApiError(403, 'challenge_failed', 'The turnstileToken was not accepted.');
          }
        }
        const now = ctx.now();
        const day = dayOf(now);
        const network = networkOf(req);
        const device = deviceId.toLowerCase();
        const token = newSecret(TOKEN_PREFIX.session);
        const granted = ctx.jobsRepo.transaction(() => {
          const deviceLeft =
            limits.deviceDayFrames - ctx.credentials.poolUsage('device', device, day);
          const networkLeft =
            limits.networkDayFrames - ctx.credentials.poolUsage('network', network, day);
          if (deviceLeft <= 0 || networkLeft <= 0) {
            const which = deviceLeft <= 0 ? 'device' : 'network';
            throw new ApiError(
              429,
              `${which}_frames_exhausted`,
              `This ${which} has used today's session frames; try again tomorrow (UTC).`,
              { 'Retry-After': untilTomorrow() },
            );
          }
          const frames = Math.min(limits.sessionFrames, deviceLeft, networkLeft);
          ctx.credentials.insert(
            {
              id: randomUUID(),
              hash: hashSecret(token),
              audience: 'session',
              frames_granted: frames,
              expires_at: now + times.sessionTtlMs,
              device_id: device,
              network,
            },
            now,
          );
          ctx.credentials.addPoolUsage('device', device, day, frames);
          ctx.credentials.addPoolUsage('network', network, day, frames);
          return { frames, deviceLeft: deviceLeft - frames, networkLeft: networkLeft - frames };
        });
        sendJson(res, 201, {
          token,
          credits: granted.frames,
          expiresAt: iso(now + times.sessionTtlMs),
          deviceFramesLeft: granted.deviceLeft,
          networkFramesLeft: granted.networkLeft,
        });
      },
    },
    {
      method: 'GET',
      path: '/key',
      handler: (req, res) => {
        const cred = authenticate(req.headers.authorization, ctx.credentials, ctx.now());
        sendJson(res, 200, {
          audience: cred.audience,
          ...ctx.ledger.balance(cred),
          expiresAt: iso(cred.expires_at),
        });
      },
    },
    {
      method: 'POST',
      path: '/sdk-key',
      handler: async (req, res) => {
        const cred = authenticate(req.headers.authorization, ctx.credentials, ctx.now());
        if (cred.audience !== 'session') {
          throw new ApiError(
            403,
            'session_token_required',
            'Only a browser session token can be exchanged for a trial key.',
          );
        }
        await readJsonObject(req);
        const now = ctx.now();
        const key = newSecret(TOKEN_PREFIX.trial_key);
        const expiresAt = now + times.trialKeyTtlMs;
        ctx.jobsRepo.transaction(() => {
          if (ctx.credentials.trialKeyOf(cred.id)) {
            throw new ApiError(
              409,
              'trial_key_exists',
              'This session has already been exchanged for a trial key.',
            );
          }
          ctx.credentials.insert(
            {
              id: randomUUID(),
              hash: hashSecret(key),
              audience: 'trial_key',
              frames_granted: limits.trialKeyFrames,
              expires_at: expiresAt,
              parent_id: cred.id,
              device_id: cred.device_id,
              network: cred.network,
            },
            now,
          );
        });
        sendJson(res, 201, {
          key,
          frames: limits.trialKeyFrames,
          expiresAt: iso(expiresAt),
          notice: `Trial key with ${limits.trialKeyFrames} frames, valid until ${iso(expiresAt)}. It is shown only once: store it now.`,
        });
      },
    },
  ];
}
