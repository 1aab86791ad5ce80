import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeFixture, type StoreFixture } from './store-fixture.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await storeFixture();
});
afterEach(() => fx.done());

const HOUR = 3_600_000;

describe('frames ledger', () => {
  it('sums frames spent per service since a time, net of refunds', () => {
    const { ledger } = fx.store;
    const t = 100 * HOUR;
    ledger.record({ serviceUrl: 'http://a', submissionId: null, frames: 80, at: t - HOUR });
    ledger.record({ serviceUrl: 'http://a', submissionId: null, frames: 1, at: t });
    ledger.record({ serviceUrl: 'http://a', submissionId: null, frames: 80, at: t + 10 });
    ledger.record({ serviceUrl: 'http://a', submissionId: null, frames: -30, at: t + 20 });
    ledger.record({ serviceUrl: 'http://b', submissionId: null, frames: 500, at: t + 30 });
    expect(ledger.spentSince('http://a', t)).toBe(51);
    expect(ledger.spentSince('http://a', 0)).toBe(131);
    expect(ledger.spentSince('http://b', t)).toBe(500);
    expect(ledger.spentSince('http://nobody', 0)).toBe(0);
    expect(fx.reopen().ledger.spentSince('http://a', t)).toBe(51);
  });
});

describe('catalog snapshots', () => {
  it('returns the latest catalog per service, and an unchanged one does not pile up', () => {
    const { catalog } = fx.store;
    catalog.saveSnapshot('http://a', '1', '{"v":1}', 10);
    catalog.saveSnapshot('http://a', '2', '{"v":2}', 20);
    catalog.saveSnapshot('http://a', '2', '{"v":2}', 30);
    catalog.saveSnapshot('http://b', '9', '{"v":9}', 25);
    expect(catalog.latest('http://a')).toEqual({ version: '2', body: '{"v":2}', at: 30 });
    expect(catalog.latest('http://b')?.version).toBe('9');
    expect(catalog.latest('http://c')).toBeUndefined();
  });
});

describe('settings', () => {
  it('keeps plain settings across restarts and refuses anything that looks like a secret', () => {
    fx.store.settings.set('ui.theme', 'dark');
    fx.store.settings.set('ui.theme', 'light');
    fx.store.settings.set('service.baseUrl', 'https://example.test');
    const store = fx.reopen();
    expect(store.settings.get('ui.theme')).toBe('light');
    expect(store.settings.get('nothing')).toBeUndefined();
    for (const key of ['service.apiKey', 'sessionToken', 'proxy.password']) {
      expect(() => store.settings.set(key, 'x')).toThrow(/keychain/);
    }
  });
});
