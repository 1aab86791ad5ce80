/** Electron's `protocol` module as the scheme handlers see it: register, then fetch through them. */
import type { ProtocolLike } from '../../electron/main/media-protocol.js';

export function fakeProtocol() {
  const handlers = new Map<string, (request: Request) => Response | Promise<Response>>();
  const protocol: ProtocolLike = {
    handle: (scheme, handler) => void handlers.set(scheme, handler),
    unhandle: (scheme) => void handlers.delete(scheme),
  };
  /** What the registered handler of `scheme` answers to a request, as Electron would call it. */
  const fetchVia = (scheme: string, url: string, init?: RequestInit) =>
    Promise.resolve(handlers.get(scheme)!(new Request(url, init)));
  return { protocol, handlers, fetchVia };
}
