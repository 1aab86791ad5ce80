/**
 * Builds `window.labeldesk` over the IPC renderer: one invoke channel for calls and one channel
 * for events, both named by the contract's envelope. Nothing else of ipcRenderer is reachable.
 */
import type { CallMessage, ReplyMessage } from '../shared/contract/envelope.js';
import type { DroppedFile, PreloadBridge } from '../shared/contract/preload-bridge.js';

type Listener = (event: unknown, ...args: unknown[]) => void;

/** The part of Electron's ipcRenderer the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: Listener): unknown;
  removeListener(channel: string, listener: Listener): unknown;
}

export interface BridgeChannels {
  call: string;
  event: string;
}

export function createPreloadBridge(
  ipc: IpcRendererLike,
  channels: BridgeChannels,
  getPathForFile: (file: DroppedFile) => string,
): PreloadBridge {
  return {
    request: (message: CallMessage) => ipc.invoke(channels.call, message) as Promise<ReplyMessage>,
    onEvent(listener) {
      // The IPC event (with its sender) never reaches the page: only the name and the payload.
      const forward: Listener = (_event, message) => {
        if (typeof message !== 'object' || message === null) return;
        const { name, payload } = message as { name?: unknown; payload?: unknown };
        if (typeof name === 'string') listener(name, payload);
      };
      ipc.on(channels.event, forward);
      return () => {
        ipc.removeListener(channels.event, forward);
      };
    },
    pathForFile: (file) => getPathForFile(file),
  };
}
