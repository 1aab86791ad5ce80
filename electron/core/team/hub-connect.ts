/**
 * Which server of a hub address a connection goes to, chosen as libpq chooses: the hosts in the
 * address's order, each given `connect_timeout`, and with `target_session_attrs` the first whose
 * session fits (a fresh session's `transaction_read_only` and `pg_is_in_recovery()`, as libpq
 * reads them). postgres.js reads multi-host addresses itself, but takes a hot standby for
 * `read-write` (it looks at `default_transaction_read_only` alone, which a standby leaves off)
 * and refuses `any`; so the host is chosen here before a statement needs a connection, and the
 * driver's sockets go to it. A lost connection or a read-only answer makes the next statement
 * choose again: after a failover the promoted standby is found.
 */
import { connect, type Socket } from 'node:net';
import postgres from 'postgres';
import { hostsOfAddress, parseHubUrl, type HubHost, type SessionAttrs } from './hub-url.js';
import { hubTarget, type HubTarget } from './hub-tls.js';
import { HUB_ARRAY_TYPES } from './pg-arrays.js';
import { TeamError } from './team-errors.js';

/**
 * Options postgres.js reads but does not type: host and port lists (a string host is split at
 * its colons, which loses an IPv6 address), and `socket`, a connected socket per connection.
 */
export interface DriverOptions {
  host: string;
  port: number;
  connect_timeout: number;
}
const hostOption = (h: HubHost) =>
  ({ host: [h.host], port: [h.port] }) as unknown as Pick<DriverOptions, 'host' | 'port'>;

export interface HubConnector {
  /** The address for the driver: its first host only, without `target_session_attrs`. */
  url: string;
  /** postgres.js options that make every connection through `socket` (`lost`: told on close). */
  driverOptions(lost?: () => void): DriverOptions;
  /** How many connections were made, and the host of the last. */
  readonly sessions: number;
  readonly host: HubHost | undefined;
  /** Chooses the host the next connections go to, unless one is chosen (before each statement). */
  choose(): Promise<void>;
  /** Closes every connection made: the next statement chooses a host again (a standby reached). */
  drop(): void;
  /** The next statement chooses a host again (a connection was lost). */
  forget(): void;
}

const label = (h: HubHost) =>
  h.host.includes(':') ? `[${h.host}]:${h.port}` : `${h.host}:${h.port}`;

/** A network failure (try the next host), not a server's refusal of this login (libpq stops). */
const isNetwork = (err: unknown) => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code) || code.startsWith('57P');
};

interface SessionKind {
  standby: boolean;
  readOnly: boolean;
}

/** libpq's tests of a session against `target_session_attrs`. */
function fits(want: SessionAttrs, s: SessionKind): boolean {
  switch (want) {
    case 'read-write':
      return !s.readOnly;
    case 'read-only':
      return s.readOnly;
    case 'primary':
      return !s.standby;
    case 'standby':
    case 'prefer-standby':
      return s.standby;
    default:
      return true;
  }
}

export function hubConnector(
  address: string,
  target: HubTarget,
  login: { password: string | undefined; connectTimeoutSeconds: number },
): HubConnector {
  const { hosts, attrs, connectTimeoutSeconds } = hostsOfAddress(address);
  const { role, database } = parseHubUrl(address);
  const first = hosts[0] as HubHost;
  const timeoutSeconds = connectTimeoutSeconds ?? login.connectTimeoutSeconds;
  const q = target.url.indexOf('?');
  const params = new URLSearchParams(q < 0 ? '' : target.url.slice(q + 1));
  params.delete('target_session_attrs');
  params.delete('connect_timeout');
  const rest = params.toString();
  const url = `postgresql://${encodeURIComponent(role)}@${label(first)}/${encodeURIComponent(database)}${rest ? `?${rest}` : ''}`;
  const open = new Set<Socket>();
  let sessions = 0;
  let current: HubHost | undefined;

  /** A short session on `h` to read what kind of server it is. */
  async function kindOf(h: HubHost): Promise<SessionKind> {
    const probe = postgres(url, {
      ...hostOption(h),
      ...(login.password !== undefined ? { password: login.password } : {}),
      ...(target.ssl ? { ssl: target.ssl } : {}),
      max: 1,
      connect_timeout: timeoutSeconds,
      fetch_types: false,
      onnotice: () => undefined,
      connection: { application_name: 'labeldesk' },
    });
    try {
      const [row] = await probe.unsafe<{ standby: boolean; ro: string }[]>(
        "SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') AS ro",
      );
      return { standby: row?.standby === true, readOnly: row?.ro === 'on' };
    } finally {
      await probe.end({ timeout: 0 });
    }
  }

  /** The first host that fits (libpq's order and tests); for `any`, the first that answers. */
  async function pick(): Promise<HubHost> {
    const passes: SessionAttrs[] = attrs === 'prefer-standby' ? ['standby', 'any'] : [attrs];
    const why: string[] = [];
    for (const want of passes) {
      for (const h of hosts) {
        try {
          if (want === 'any') {
            // A whole session, not only TCP: a host that accepts and never answers is given up
            // after connect_timeout and the next one tried, as libpq times the whole startup.
            if (hosts.length > 1) await kindOf(h);
            return h;
          }
          const kind = await kindOf(h);
          if (fits(want, kind)) return h;
          why.push(`${label(h)} is ${kind.standby ? 'a standby' : 'read-only'}`);
        } catch (err) {
          if (!isNetwork(err)) throw err;
          why.push(
            `${label(h)}: ${(err as Error).message || String((err as { code?: unknown }).code)}`,
          );
        }
      }
    }
    throw new TeamError(
      'hub_unreachable',
      `No host of the hub address is ${attrs === 'any' ? 'reachable' : `a ${attrs} server`} now (${why.join('; ')}); work goes on locally and syncs when it is back.`,
    );
  }

  let picking: Promise<HubHost> | undefined;
  let chosen: HubHost | undefined;
  return {
    url,
    async choose() {
      if (chosen) return;
      picking ??= pick().finally(() => (picking = undefined));
      chosen = await picking;
    },
    // The driver gets a socket still connecting (it writes once connected), never a failure
    // of its own making: a failed connect is then an ordinary connection error to it.
    driverOptions: (lost) =>
      ({
        ...hostOption(first),
        connect_timeout: timeoutSeconds,
        socket: () => {
          const h = chosen ?? first;
          const socket = connect({ host: h.host, port: h.port });
          // postgres.js names the TLS server by it (SNI), as for a socket of its own.
          Object.assign(socket, { host: h.host, port: h.port });
          open.add(socket);
          socket.once('close', () => {
            open.delete(socket);
            lost?.();
          });
          sessions += 1;
          current = h;
          return socket;
        },
      }) as DriverOptions,
    get sessions() {
      return sessions;
    },
    get host() {
      return current;
    },
    drop() {
      chosen = undefined;
      for (const s of open) s.destroy();
    },
    forget() {
      chosen = undefined;
    },
  };
}

/**
 * The driver for a hub address: `open()` makes a client (max one connection: a desktop's
 * statements run in order) whose connections go where the connector chooses.
 */
export function hubDriver(options: {
  address: string;
  password: string | undefined;
  connectTimeoutSeconds?: number;
}): { connector: HubConnector; open: (lost?: () => void) => postgres.Sql } {
  const target = hubTarget(options.address);
  const connector = hubConnector(options.address, target, {
    password: options.password,
    connectTimeoutSeconds: options.connectTimeoutSeconds ?? 5,
  });
  const open = (lost?: () => void) =>
    postgres(connector.url, {
      ...(options.password !== undefined ? { password: options.password } : {}),
      ...(target.ssl ? { ssl: target.ssl } : {}),
      max: 1,
      idle_timeout: 30,
      // The array types are ours: postgres.js's own fetch of them could crash the process.
      fetch_types: false,
      types: HUB_ARRAY_TYPES,
      onnotice: () => undefined,
      // Connection errors are reported by the query that met them (teamErrorOf).
      connection: { application_name: 'labeldesk' },
      ...connector.driverOptions(lost),
    });
  return { connector, open };
}
