/** Builds the one `api` of the UI over whichever transport this window has. */
import { createApiClient, type LabelDeskApi } from '../../../electron/shared/contract/index.js';
import { ConnectionStatus } from './connection-status.js';
import { createSocketTransport } from './socket-transport.js';
import { bridgeUrl, chooseTransport, hashWithoutSecret } from './transport-choice.js';

export interface ApiHandle {
  api: LabelDeskApi;
  status: ConnectionStatus;
  onReconnect(listener: () => void): void;
  /** The absolute path of a dropped file (desktop app only). */
  pathForFile?: (file: File) => string;
}

export function createApi(win: Window): ApiHandle {
  const bridge = win.labeldesk;
  const choice = chooseTransport(bridge !== undefined, win.location.hash);
  if (choice.kind === 'browser') {
    // The secret lives in this closure only: out of the address bar, history and storage.
    const { pathname, search } = win.location;
    win.history.replaceState(
      win.history.state,
      '',
      `${pathname}${search}${hashWithoutSecret(win.location.hash)}`,
    );
    const transport = createSocketTransport(
      bridgeUrl(win.location.protocol, win.location.host),
      choice.secret,
    );
    return {
      api: createApiClient(transport),
      status: transport.status,
      onReconnect: transport.onReconnect,
    };
  }
  const status = new ConnectionStatus();
  if (choice.kind === 'electron' && bridge) {
    status.set({ state: 'open' });
    return {
      api: createApiClient(bridge),
      status,
      onReconnect: () => undefined,
      pathForFile: (file) => bridge.pathForFile(file),
    };
  }
  if (choice.kind === 'none') status.set({ state: 'unavailable', ...choice });
  const unavailable = {
    request: (message: { id: number }) =>
      Promise.resolve({
        type: 'reply' as const,
        id: message.id,
        ok: false as const,
        error: { code: 'no_launch_secret', message: 'No connection to LabelDesk.' },
      }),
    onEvent: () => undefined,
  };
  return { api: createApiClient(unavailable), status, onReconnect: () => undefined };
}
