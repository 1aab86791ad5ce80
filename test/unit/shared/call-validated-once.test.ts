import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../../electron/shared/contract/api-client.js';
import { dispatchCall } from '../../../electron/shared/contract/dispatch.js';
import { CALLS, type Handlers } from '../../../electron/shared/contract/labeldesk-api.js';

afterEach(() => vi.restoreAllMocks());

describe('a call result', () => {
  it('is validated once, by the dispatch that sends it, and reaches the caller as sent', async () => {
    const info = {
      name: 'LabelDesk',
      version: '1',
      transport: 'in-process' as const,
      home: '/h',
      mediaBase: 'http://m/',
      notices: [],
      nativeDialogs: false,
      secret: 'never sent',
    };
    const handlers = { 'app.info': () => info } as unknown as Handlers;
    const parse = vi.spyOn(CALLS['app.info'].output, 'parse');
    const api = createApiClient({
      request: (m) => dispatchCall(handlers, m.id, m.name, m.input),
      onEvent: () => undefined,
    });
    const got = await api.call('app.info', {});
    expect(parse).toHaveBeenCalledTimes(1);
    // What the contract does not name is stripped before it leaves the dispatch.
    expect(got).not.toHaveProperty('secret');
    expect(got).toMatchObject({ name: 'LabelDesk', home: '/h' });
  });
});
