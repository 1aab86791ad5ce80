import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import config from '../../../electron.vite.config.js';
import {
  createPreloadBridge,
  type IpcRendererLike,
} from '../../../electron/preload/preload-bridge.js';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../../../electron/shared/contract/index.js';
import type { PreloadBridge } from '../../../electron/shared/contract/preload-bridge.js';

type Listener = (event: unknown, ...args: unknown[]) => void;

function fakeIpcRenderer() {
  const invoked: [string, unknown][] = [];
  const listeners = new Map<string, Set<Listener>>();
  const ipc: IpcRendererLike = {
    async invoke(channel, message) {
      invoked.push([channel, message]);
      return { type: 'reply', id: 1, ok: true, result: { echoed: message } };
    },
    on(channel, listener) {
      listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener));
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
    },
  };
  const emit = (channel: string, message: unknown) => {
    for (const l of listeners.get(channel) ?? []) l({ sender: 'ipc internals' }, message);
  };
  return { ipc, invoked, emit, listeners };
}

/** The bridge's behaviour, whichever way it was built. */
async function exerciseBridge(bridge: PreloadBridge, fake: ReturnType<typeof fakeIpcRenderer>) {
  const message = { type: 'call' as const, id: 1, name: 'app.info', input: {} };
  expect(await bridge.request(message)).toMatchObject({ ok: true, result: { echoed: message } });
  expect(fake.invoked).toEqual([[CALL_CHANNEL, message]]);

  const events: unknown[][] = [];
  const stop = bridge.onEvent((...args) => events.push(args));
  fake.emit(EVENT_CHANNEL, { type: 'event', name: 'library.changed', payload: { at: 1 } });
  fake.emit(EVENT_CHANNEL, 'not an event');
  fake.emit('other:channel', { type: 'event', name: 'x', payload: 1 });
  expect(events).toEqual([['library.changed', { at: 1 }]]);
  stop();
  fake.emit(EVENT_CHANNEL, { type: 'event', name: 'library.changed', payload: { at: 2 } });
  expect(events).toHaveLength(1);
  expect(fake.listeners.get(EVENT_CHANNEL)?.size).toBe(0);
}

describe('the preload bridge', () => {
  it('sends calls on the call channel and passes events without the IPC event', async () => {
    const fake = fakeIpcRenderer();
    const bridge = createPreloadBridge(
      fake.ipc,
      { call: CALL_CHANNEL, event: EVENT_CHANNEL },
      () => '/dropped',
    );
    expect(Object.keys(bridge).sort()).toEqual(['onEvent', 'pathForFile', 'request']);
    expect(bridge.pathForFile({})).toBe('/dropped');
    await exerciseBridge(bridge, fake);
  });
});

describe('the preload bundle', () => {
  it('is configured as one CommonJS file with every dependency bundled', () => {
    const preload = (config as { preload: any }).preload;
    expect(preload.build.externalizeDeps).toBe(false);
    expect(preload.build.rollupOptions.output).toMatchObject({
      format: 'cjs',
      entryFileNames: '[name].cjs',
    });
  });

  it('is built as out/preload/index.cjs, requires only electron, and exposes window.labeldesk', async () => {
    const outDir = fileURLToPath(new URL('../../../out/preload/', import.meta.url));
    expect(existsSync(outDir), 'out/preload is missing: run `npm run build:app` first').toBe(true);
    expect(readdirSync(outDir, { recursive: true })).toEqual(['index.cjs']);
    const code = readFileSync(`${outDir}index.cjs`, 'utf8');
    expect(code).not.toMatch(/^\s*(import|export)\s/m);

    // Run it the way a sandboxed renderer does: CommonJS, with a `require` that knows only electron.
    const fake = fakeIpcRenderer();
    const exposed = new Map<string, unknown>();
    const required: string[] = [];
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
      ipcRenderer: fake.ipc,
      webUtils: { getPathForFile: () => '/dropped/folder' },
    };
    const module = { exports: {} };
    runInNewContext(code, {
      module,
      exports: module.exports,
      require: (name: string) => {
        required.push(name);
        if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
        return electron;
      },
    });
    expect(required).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['labeldesk']);
    const bridge = exposed.get('labeldesk') as PreloadBridge;
    expect(bridge.pathForFile({})).toBe('/dropped/folder');
    await exerciseBridge(bridge, fake);
  });
});
