/** The bridge's connection state, observable from React with `useSyncExternalStore`. */

export type ConnectionState =
  | { state: 'connecting' }
  | { state: 'open' }
  | { state: 'reconnecting'; attempt: number; retryAt: number }
  | { state: 'unavailable'; code: string; message: string };

export class ConnectionStatus {
  private current: ConnectionState = { state: 'connecting' };
  private readonly listeners = new Set<() => void>();

  get = (): ConnectionState => this.current;

  set(next: ConnectionState): void {
    this.current = next;
    for (const l of this.listeners) l();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}
