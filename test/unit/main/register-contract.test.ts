import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../electron/shared/contract/api-client.js';
import {
  forwardEvents,
  registerContract,
  sendMenuCommand,
  type IpcEventLike,
  type IpcMainLike,
} from '../../../electron/main/register-contract.js';
import { trustedSenderPolicy } from '../../../electron/main/trusted-sender.js';
import type { EventListener } from '../../../electron/application/application-types.js';
import {
  CALL_CHANNEL,
  EVENT_CHANNEL,
  type EventMessage,
  type Handlers,
  type ReplyMessage,
} from '../../../electron/shared/contract/index.js';

const RENDERER = {};
const PAGE = 'app://labeldesk/index.html';
const OUR_WINDOW = 7;

/** An ipcMain that keeps its handlers so a test can invoke them as Electron would. */
function fakeIpcMain() {
  const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
  const ipc: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
  };
  const invoke = (event: IpcEventLike, message: unknown) =>
    Promise.resolve(handlers.get(CALL_CHANNEL)!(event, message)) as Promise<ReplyMessage>;
  return { ipc, handlers, invoke };
}

function sender(url = PAGE, options: { id?: number; parent?: unknown } = {}): IpcEventLike {
  return {
    sender: { id: options.id ?? OUR_WINDOW },
    senderFrame: { url, parent: options.parent ?? null },
  };
}

function setup() {
  const seen: unknown[] = [];
  const handlers = {
    'folders.add': async (args: { path: string }) => {
      seen.push(args);
      return {
        id: 1,
        path: args.path,
      };
    },
    'runs.history': async (args: { limit: number }) => {
      seen.push(args);
      return [];
    },
  } as unknown as Handlers;
  const { ipc, handlers: registered, invoke } = fakeIpcMain();
  const stop = registerContract(
    ipc,
    { handlers },
    trustedSenderPolicy(RENDERER, () => [OUR_WINDOW]),
  );
  return { seen, invoke, registered, stop };
}

const call = (name: string, input: unknown, id = 5) => ({ type: 'call', id, name, input });

describe('registerContract', () => {
  it('answers a valid call from our window with the handler, arguments validated and defaulted', async () => {
    const { seen, invoke } = setup();
    const reply = await invoke(sender(), call('runs.history', {}));
    expect(reply).toEqual({ type: 'reply', id: 5, ok: true, result: [] });
    expect(seen).toEqual([{ limit: 50 }]);
  });

  it('refuses senders that are not the main frame of our window showing our renderer', async () => {
    const { seen, invoke } = setup();
    const untrusted = [
      sender('https://evil.example/index.html'),
      sender('file:///tmp/other/index.html'),
      // The built page opened from disk is not the app's origin any more: only app:// is trusted.
      sender('file:///opt/LabelDesk/out/renderer/index.html'),
      sender('app://labeldesk/assets/index.js'),
      sender('app://other/index.html'),
      sender('app://labeldesk:1/index.html'),
      sender('labeldesk-media://file/1'),
      sender(PAGE, { parent: { url: PAGE } }),
      sender(PAGE, { id: OUR_WINDOW + 1 }),
      { sender: { id: OUR_WINDOW }, senderFrame: null },
    ];
    for (const event of untrusted) {
      const reply = await invoke(event, call('runs.history', {}));
      expect(reply).toMatchObject({ ok: false, error: { code: 'untrusted_sender' } });
    }
    expect(seen).toEqual([]);
  });

  it('trusts the dev server origin only when one is configured', async () => {
    const { ipc, invoke } = fakeIpcMain();
    const handlers = { 'runs.history': async () => [] } as unknown as Handlers;
    const dev = { ...RENDERER, devServerUrl: 'http://localhost:5173/' };
    registerContract(
      ipc,
      { handlers },
      trustedSenderPolicy(dev, () => [OUR_WINDOW]),
    );
    const ok = await invoke(sender('http://localhost:5173/#/library'), call('runs.history', {}));
    expect(ok.ok).toBe(true);
    const other = await invoke(sender('http://localhost:5174/'), call('runs.history', {}));
    expect(other).toMatchObject({ ok: false, error: { code: 'untrusted_sender' } });
  });

  it('refuses unknown calls and malformed messages', async () => {
    const { seen, invoke } = setup();
    expect(await invoke(sender(), call('fs.readFile', { path: '/etc/passwd' }))).toMatchObject({
      id: 5,
      ok: false,
      error: { code: 'unknown_call' },
    });
    expect(await invoke(sender(), { type: 'call', name: 'runs.history' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_message' },
    });
    expect(seen).toEqual([]);
  });

  it('refuses invalid arguments with invalid_arguments before the handler runs', async () => {
    const { seen, invoke } = setup();
    for (const input of [{ path: '' }, { path: 42 }, {}]) {
      const reply = await invoke(sender(), call('folders.add', input));
      expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    }
    expect(await invoke(sender(), call('runs.history', { limit: 10_000 }))).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments' },
    });
    expect(seen).toEqual([]);
  });

  it('removes its handler when stopped', () => {
    const { registered, stop } = setup();
    expect(registered.has(CALL_CHANNEL)).toBe(true);
    stop();
    expect(registered.has(CALL_CHANNEL)).toBe(false);
  });
});

describe('forwardEvents', () => {
  it('sends each application event to every live window on the event channel', () => {
    let emit: EventListener = () => undefined;
    const app = {
      onEvent(listener: EventListener) {
        emit = listener;
        return () => {
          emit = () => undefined;
        };
      },
    };
    const sent: [string, EventMessage][] = [];
    const live = {
      isDestroyed: () => false,
      send: (c: string, m: EventMessage) => sent.push([c, m]),
    };
    const gone = { isDestroyed: () => true, send: () => expect.fail('sent to a closed window') };
    const stop = forwardEvents(app, () => [live, gone]);
    emit('library.changed', { folderIds: [3], at: 1 });
    expect(sent).toEqual([
      [
        EVENT_CHANNEL,
        { type: 'event', name: 'library.changed', payload: { folderIds: [3], at: 1 } },
      ],
    ]);
    stop();
    emit('library.changed', { folderIds: [4], at: 2 });
    expect(sent).toHaveLength(1);
  });
});

describe('sendMenuCommand', () => {
  it("hands the menu's command to the window's page as the menu.command event", () => {
    // The page's side: the api client the renderer uses, over a transport fed by the window.
    let deliver: (name: string, payload: unknown) => void = () => undefined;
    const api = createApiClient({
      request: () => expect.fail('no call expected'),
      onEvent: (listener) => void (deliver = listener),
    });
    const heard: string[] = [];
    api.on('menu.command', ({ id }) => heard.push(id));
    const page = {
      isDestroyed: () => false,
      send: (channel: string, m: EventMessage) => {
        expect(channel).toBe(EVENT_CHANNEL);
        deliver(m.name, m.payload);
      },
    };
    sendMenuCommand(page, 'review.reviewNext');
    expect(heard).toEqual(['review.reviewNext']);
    // No window, or a closed one: nothing is sent.
    sendMenuCommand(undefined, 'review.reviewNext');
    sendMenuCommand({ isDestroyed: () => true, send: () => expect.fail('sent') }, 'x');
    expect(heard).toHaveLength(1);
  });
});
