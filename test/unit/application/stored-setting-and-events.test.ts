import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppEvents } from '../../../electron/application/app-events.js';
import { readSetting } from '../../../electron/application/stored-setting.js';
import { AutoLabelInput } from '../../../electron/shared/contract/index.js';
import { storeFixture, type StoreFixture } from '../core/store/store-fixture.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await storeFixture();
});
afterEach(() => fx.done());

describe('a stored setting is read through its schema', () => {
  it('returns a value that fits, and nothing (with one log line) for one that does not', () => {
    const lines: string[] = [];
    const log = (l: string) => lines.push(l);
    expect(readSetting(fx.store, 'app.autoLabel', AutoLabelInput, log)).toBeUndefined();
    const good = { enabled: true, solution: 'objects', budget: 40 };
    fx.store.settings.set('app.autoLabel', JSON.stringify(good));
    expect(readSetting(fx.store, 'app.autoLabel', AutoLabelInput, log)).toEqual(good);
    expect(lines).toEqual([]);

    // Written by another version: budget as a string. Before, it flowed on typed as a number.
    fx.store.settings.set('app.autoLabel', '{"enabled":true,"solution":"objects","budget":"40"}');
    expect(readSetting(fx.store, 'app.autoLabel', AutoLabelInput, log)).toBeUndefined();
    expect(readSetting(fx.store, 'app.autoLabel', AutoLabelInput, log)).toBeUndefined();
    fx.store.settings.set('app.autoLabel', '{not json');
    expect(readSetting(fx.store, 'app.autoLabel', AutoLabelInput, log)).toBeUndefined();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^settings: app\.autoLabel does not fit this version/);
    expect(lines[1]).toBe('settings: app.autoLabel is not JSON; using the default');
  });
});

describe('app events', () => {
  it('a listener that throws is logged once and the others still hear every event', () => {
    const lines: string[] = [];
    const events = new AppEvents((l) => lines.push(l));
    const heard: string[] = [];
    events.on(() => {
      throw new Error('socket closed');
    });
    events.on((name) => heard.push(name));
    events.emit('library.changed', { folderIds: [], at: 1 });
    events.emit('library.changed', { folderIds: [], at: 2 });
    expect(heard).toEqual(['library.changed', 'library.changed']);
    expect(lines).toEqual(['events: a listener failed on library.changed: socket closed']);
  });
});
