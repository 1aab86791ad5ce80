/** The `api` and its connection, given to every screen through React context. */
import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { ApiHandle } from './create-api.js';
import type { ConnectionState } from './connection-status.js';

const ApiContext = createContext<ApiHandle | null>(null);

export function ApiProvider({ handle, children }: { handle: ApiHandle; children: ReactNode }) {
  return <ApiContext.Provider value={handle}>{children}</ApiContext.Provider>;
}

export function useApiHandle(): ApiHandle {
  const handle = useContext(ApiContext);
  if (!handle) throw new Error('useApiHandle outside ApiProvider');
  return handle;
}

export function useConnection(): ConnectionState {
  const { status } = useApiHandle();
  return useSyncExternalStore(status.subscribe, status.get);
}
