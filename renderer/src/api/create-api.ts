/** Builds the one `api` of the UI over whichever transport this window has. */
import { createApiClient, type LabelDeskApi } from '@shared/contract/index.js';
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
  if (bridge) {
    const status = new ConnectionStatus();
    status.set({ state: 'open' });
    return {
      api: createApiClient(bridge),
      status,
      onReconnect: () => undefined,
      pathForFile: (file) => bridge.pathForFile(file),
    };
  }
  const choice = chooseTransport(false, win.location.hash);
  const secret = choice.kind === 'browser' ? choice.secret : null;
  // The secret lives in this closure only: out of the address bar, history and storage.
  const { pathname, search } = win.location;
  win.history.replaceState(
    win.history.state,
    '',
    `${pathname}${search}${hashWithoutSecret(win.location.hash)}`,
  );
  const transport = createSocketTransport(
    bridgeUrl(win.location.protocol, win.location.host),
    secret,
  );
  return {
    api: createApiClient(transport),
    status: transport.status,
    onReconnect: transport.onReconnect,
  };
}
