import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  bridgeUrl,
  chooseTransport,
  hashWithoutSecret,
  NO_SESSION,
  parseLaunchSecret,
} from '../../../renderer/src/api/transport-choice.js';

const SECRET = 'dpA4K3xwsugBv3TXQGKGk6-rrSGMnTac';

describe('transport choice', () => {
  it('uses the preload bridge whenever it exists, even with a secret in the address', () => {
    expect(chooseTransport(true, `#secret=${SECRET}`)).toEqual({ kind: 'electron' });
  });

  it('uses the browser bridge with the secret from the fragment', () => {
    expect(chooseTransport(false, `#secret=${SECRET}`)).toEqual({
      kind: 'browser',
      secret: SECRET,
    });
  });

  it('uses the browser bridge without a secret after a reload (the session cookie is its credential)', () => {
    expect(chooseTransport(false, '')).toEqual({ kind: 'browser', secret: null });
    expect(NO_SESSION.code).toBe('no_launch_secret');
    expect(NO_SESSION.message).toMatch(/#secret=/);
  });
});

describe('launch secret', () => {
  it('reads it among other fragment fields, with or without the #', () => {
    expect(parseLaunchSecret(`#view=grid&secret=${SECRET}`)).toBe(SECRET);
    expect(parseLaunchSecret(`secret=${SECRET}`)).toBe(SECRET);
  });

  it('refuses what cannot be a secret rather than sending it in a header', () => {
    expect(parseLaunchSecret('#secret=')).toBeNull();
    expect(parseLaunchSecret('#secret=short')).toBeNull();
    expect(parseLaunchSecret('#secret=has%20space%2Cand-comma-xxxxxxxx')).toBeNull();
    expect(parseLaunchSecret('#other=1')).toBeNull();
  });

  it('is taken out of the fragment, keeping the rest', () => {
    expect(hashWithoutSecret(`#secret=${SECRET}`)).toBe('');
    expect(hashWithoutSecret(`#view=grid&secret=${SECRET}`)).toBe('#view=grid');
  });
});

describe('bridge address and reconnecting', () => {
  it('follows the page: ws for http, wss for https', () => {
    expect(bridgeUrl('http:', '127.0.0.1:8790')).toBe('ws://127.0.0.1:8790/bridge');
    expect(bridgeUrl('https:', 'example.test')).toBe('wss://example.test/bridge');
  });

  it('backs off by doubling and stops growing at 8 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(backoffDelay)).toEqual([
      250, 500, 1000, 2000, 4000, 8000, 8000,
    ]);
    expect(backoffDelay(1000)).toBe(8000);
  });
});
