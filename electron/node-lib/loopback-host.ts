/**
 * DNS-rebinding defence for our loopback servers (the embedded service and browser mode). A web page
 * on a name its owner re-points at 127.0.0.1 reaches our port with that name in `Host`, so a request
 * is accepted only when `Host` names the address the server listens on, or `localhost`, with its port.
 */
import { isIP, type AddressInfo } from 'node:net';

const WILDCARD = new Set(['0.0.0.0', '::']);

/** `Host` split into a lower-case hostname (IPv6 without brackets) and a port, or undefined if malformed. */
export function parseHostHeader(host: string): { hostname: string; port?: number } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::([0-9]{1,5}))?$/i.exec(host.trim());
  if (!match) return undefined;
  const hostname = (match[1] ?? '').toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (match[2] === undefined) return { hostname };
  return { hostname, port: Number(match[2]) };
}

/**
 * Whether a request's `Host` may be answered by a server listening at `address`. An absent Host
 * (HTTP/1.0) is no browser's and is allowed; so is an allowed name without a port. A server bound to every interface (0.0.0.0, ::) is
 * reached through any of the machine's addresses: any IP literal is accepted then, never a name.
 */
export function isAllowedHost(host: string | undefined, address: AddressInfo | null): boolean {
  if (host === undefined) return true;
  if (!address) return false;
  const parsed = parseHostHeader(host);
  if (!parsed) return false;
  // Browsers always send a non-default port; a Host without one comes from a tool, not a page.
  if (parsed.port !== undefined && parsed.port !== address.port) return false;
  if (parsed.hostname === 'localhost') return true;
  const listening = address.address.toLowerCase();
  if (WILDCARD.has(listening)) return isIP(parsed.hostname) !== 0;
  return parsed.hostname === listening;
}

/** The sentence a refused request gets. */
export function hostRefusalMessage(address: AddressInfo | null): string {
  const port = address?.port ?? 0;
  const shown = address?.family === 'IPv6' ? `[${address.address}]` : (address?.address ?? '');
  return `This server answers only requests addressed to ${shown}:${port} or localhost:${port}.`;
}
