/**
 * libpq's TLS parameters in a hub address, for the driver. postgres.js reads `sslmode` but would
 * send any other parameter to the server as a setting, which the server refuses; and it checks
 * a certificate against the name "localhost" when the host is an IP address. So `verify-full`
 * and `verify-ca` are handled here: `sslrootcert` (a CA file, as libpq takes it; `system` or
 * absent: the system's CAs) goes to TLS, and `verify-full` checks the certificate names the
 * address's host (one of its hosts, for a multi-host address).
 */
import { readFileSync } from 'node:fs';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import { TeamError } from './team-errors.js';
import { hostsOfAddress } from './hub-url.js';

export interface HubTarget {
  /** The address for the driver (without the TLS parameters handled here). */
  url: string;
  ssl?: {
    ca?: Buffer;
    rejectUnauthorized: true;
    checkServerIdentity: (host: string, cert: PeerCertificate) => Error | undefined;
  };
}

function readCa(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new TeamError(
      'bad_tls',
      `The CA file of the hub address (sslrootcert) cannot be read: ${(err as Error).message}.`,
    );
  }
}

export function hubTarget(address: string): HubTarget {
  const q = address.indexOf('?');
  const params = new URLSearchParams(q < 0 ? '' : address.slice(q + 1));
  const mode = params.get('sslmode');
  const rootCert = params.get('sslrootcert');
  if (mode !== 'verify-full' && mode !== 'verify-ca') {
    if (rootCert !== null && rootCert !== 'system') {
      throw new TeamError(
        'bad_tls',
        `sslrootcert is used only with sslmode=verify-full or verify-ca (the address has sslmode=${mode ?? 'none'}).`,
      );
    }
    return { url: address };
  }
  params.delete('sslrootcert');
  params.delete('sslmode');
  const rest = params.toString();
  const hosts = hostsOfAddress(address).hosts.map((h) => h.host);
  return {
    url: (q < 0 ? address : address.slice(0, q)) + (rest ? `?${rest}` : ''),
    ssl: {
      ...(rootCert !== null && rootCert !== 'system' ? { ca: readCa(rootCert) } : {}),
      rejectUnauthorized: true,
      // verify-ca checks the chain only, as libpq does; verify-full also that it names the host.
      checkServerIdentity: (_host, cert) => {
        if (mode === 'verify-ca') return undefined;
        const errors = hosts.map((h) => checkServerIdentity(h, cert));
        return errors.some((e) => e === undefined) ? undefined : errors[0];
      },
    },
  };
}
