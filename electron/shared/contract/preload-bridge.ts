/**
 * The one global the Electron preload exposes to the renderer: `window.labeldesk`. It is the
 * minimal `MessageTransport` (calls and events in the envelope shape) plus the path of a dropped
 * file, which only the preload can read. The renderer wraps it with `createApiClient`.
 */
import type { MessageTransport } from './api-client.js';

/** A dropped `File`, as far as the bridge needs to name it (the DOM type is not in every build). */
export type DroppedFile = object;

export interface PreloadBridge extends MessageTransport {
  /** Subscribes to every event; returns the unsubscribe function. */
  onEvent(listener: (name: string, payload: unknown) => void): () => void;
  /** The absolute path of a file or folder dropped on the window ('' if it has none). */
  pathForFile(file: DroppedFile): string;
}

declare global {
  interface Window {
    /** Present in the desktop app only; browser mode talks over the loopback WebSocket. */
    labeldesk?: PreloadBridge;
  }
}
