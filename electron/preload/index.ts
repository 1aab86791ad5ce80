// The preload: exposes `window.labeldesk` (calls and events over the contract's two channels) and
// nothing else. Bundled into one CommonJS file, since a sandboxed renderer cannot load ESM preloads.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../shared/contract/channels.js';
import { createPreloadBridge } from './preload-bridge.js';

contextBridge.exposeInMainWorld(
  'labeldesk',
  createPreloadBridge(ipcRenderer, { call: CALL_CHANNEL, event: EVENT_CHANNEL }, (file) =>
    webUtils.getPathForFile(file as File),
  ),
);
