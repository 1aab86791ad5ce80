/** GET /healthz, POST /session, GET /key and POST /sdk-key: strict on what the interface names. */
import type { Health, KeyStatus, SdkKey, Session } from './adapter-types.js';
import type { Problems } from './notes.js';
import { isObject, looseNumberOf, stringOf, textOf, type Json } from './read-values.js';

function objectOr(raw: unknown, root: string, problems: Problems): Json | null {
  if (isObject(raw)) return raw;
  problems.add(root, 'expected a JSON object');
  return null;
}

function required<T>(value: T | null, field: string, problems: Problems): value is T {
  if (value === null) problems.add(field, 'required (the interface names it): expected a number');
  return value !== null;
}

export function readHealth(raw: unknown, problems: Problems): Health | null {
  const o = objectOr(raw, 'health', problems);
  if (!o) return null;
  const solutions: Record<string, string> = {};
  if (isObject(o.solutions)) {
    for (const [k, v] of Object.entries(o.solutions)) {
      const text = textOf(v) ?? (isObject(v) ? textOf(v.status) : null);
      if (text !== null) solutions[k] = text;
    }
  }
  return {
    status: textOf(o.status) ?? 'unknown',
    uptimeSec: looseNumberOf(o.uptimeSec),
    enabled: typeof o.enabled === 'boolean' ? o.enabled : null,
    ai: textOf(o.ai) ?? (isObject(o.ai) ? textOf(o.ai.status) : null),
    solutions,
  };
}

export function readKeyStatus(raw: unknown, problems: Problems): KeyStatus | null {
  const o = objectOr(raw, 'key', problems);
  if (!o) return null;
  const remaining = looseNumberOf(o.remaining);
  const hourRemaining = looseNumberOf(o.hourRemaining);
  const okRemaining = required(remaining, 'key.remaining', problems);
  const okHour = required(hourRemaining, 'key.hourRemaining', problems);
  if (!okRemaining || !okHour) return null;
  return {
    audience: textOf(o.audience) ?? 'unknown',
    remaining,
    hourRemaining,
    expiresAt: textOf(o.expiresAt),
  };
}

export function readSession(raw: unknown, problems: Problems): Session | null {
  const o = objectOr(raw, 'session', problems);
  if (!o) return null;
  const token = stringOf(o.token);
  if (!token) {
    problems.add('session.token', 'required (the interface names it)');
    return null;
  }
  return {
    token,
    credits: looseNumberOf(o.credits),
    expiresAt: textOf(o.expiresAt),
    deviceFramesLeft: looseNumberOf(o.deviceFramesLeft),
    networkFramesLeft: looseNumberOf(o.networkFramesLeft),
  };
}

export function readSdkKey(raw: unknown, problems: Problems): SdkKey | null {
  const o = objectOr(raw, 'sdkKey', problems);
  if (!o) return null;
  const key = stringOf(o.key);
  if (!key) {
    problems.add('sdkKey.key', 'required (the interface names it)');
    return null;
  }
  return {
    key,
    frames: looseNumberOf(o.frames),
    expiresAt: textOf(o.expiresAt),
    notice: stringOf(o.notice),
  };
}
