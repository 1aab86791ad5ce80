/** Endpoints 4–6: sessions, key status, trial keys. */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TOKEN_PREFIX, authenticate } from '../auth/authenticate.js';
import { drawFromPools } from '../credits/day-pools.js';
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
  // The socket is detached once an answer has gone out; read the address defensively.
  const socket = req.socket as IncomingMessage['socket'] | null;
  const addr = (socket?.remoteAddress ?? 'unknown').replace(/^::ffff:/, '');
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
        const token = newSecret(TOKEN_PREFIX.session);
        const pools = { device: deviceId.toLowerCase(), network: networkOf(req) };
        const granted = ctx.jobsRepo.transaction(() => {
          const grant = drawFromPools(ctx.credentials, limits, pools, limits.sessionFrames, now);
          ctx.credentials.insert(
            {
              id: randomUUID(),
              hash: hashSecret(token),
              audience: 'session',
              frames_granted: grant.frames,
              expires_at: now + times.sessionTtlMs,
              device_id: pools.device,
              network: pools.network,
            },
            now,
          );
          return grant;
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
        // The trial key's frames come out of the same daily pools as the session's own.
        const pools = {
          device: cred.device_id ?? 'unknown',
          network: cred.network ?? networkOf(req),
        };
        const grant = ctx.jobsRepo.transaction(() => {
          if (ctx.credentials.trialKeyOf(cred.id)) {
            throw new ApiError(
              409,
              'trial_key_exists',
              'This session has already been exchanged for a trial key.',
            );
          }
          const drawn = drawFromPools(ctx.credentials, limits, pools, limits.trialKeyFrames, now);
          ctx.credentials.insert(
            {
              id: randomUUID(),
              hash: hashSecret(key),
              audience: 'trial_key',
              frames_granted: drawn.frames,
              expires_at: expiresAt,
              parent_id: cred.id,
              device_id: pools.device,
              network: pools.network,
            },
            now,
          );
          return drawn;
        });
        sendJson(res, 201, {
          key,
          frames: grant.frames,
          expiresAt: iso(expiresAt),
          deviceFramesLeft: grant.deviceLeft,
          networkFramesLeft: grant.networkLeft,
          notice: `Trial key with ${grant.frames} frames, valid until ${iso(expiresAt)}. It is shown only once: store it now.`,
        });
      },
    },
  ];
}
