/**
 * A hub's address as users paste it: libpq's URL form, with one host or several
 * (`postgresql://role:pw@h1:5432,h2:5433/db?target_session_attrs=read-write&sslmode=verify-full`).
 * WHATWG's URL refuses several hosts, so the parts are read here. The password is taken out: it
 * goes to the keychain, and only the address without it is ever stored or shown. libpq's
 * keyword/value form (`host=h1,h2 port=5432,5433 dbname=x user=u`) is read too
 * (hub-url-keywords.ts) and stored in the URL form.
 */
import { HubUrlError } from './hub-url-error.js';
import { isKeywordForm, keywordsToUrl } from './hub-url-keywords.js';

export { HubUrlError } from './hub-url-error.js';

export interface HubUrl {
  /** The address without a password (what is stored and shown; the keychain's account). */
  address: string;
  role: string;
  /** The password given in the address, if any (percent-decoded). */
  password: string | undefined;
  database: string;
}

const FORM = /^(postgres(?:ql)?):\/\/(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/;

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new HubUrlError(`The hub address's ${what} is not valid percent-encoding.`);
  }
}

export function parseHubUrl(given: string): HubUrl {
  const keywords = isKeywordForm(given) ? keywordsToUrl(given) : undefined;
  const text = keywords?.url ?? given;
  const m = FORM.exec(text.trim());
  if (!m) {
    throw new HubUrlError(
      'The hub address must look like postgresql://ROLE@HOST:PORT/DATABASE or host=HOST port=PORT dbname=DATABASE user=ROLE (libpq forms).',
    );
  }
  const [, scheme, userinfo, hosts, path, query] = m as unknown as [
    string,
    string,
    string | undefined,
    string,
    string | undefined,
    string | undefined,
  ];
  if (!userinfo)
    throw new HubUrlError('The hub address must name your PostgreSQL role (ROLE@HOST).');
  if (!hosts) throw new HubUrlError('The hub address must name a host.');
  const colon = userinfo.indexOf(':');
  const role = decode(colon < 0 ? userinfo : userinfo.slice(0, colon), 'role');
  const password =
    keywords?.password ?? (colon < 0 ? undefined : decode(userinfo.slice(colon + 1), 'password'));
  const database = decode((path ?? '/').slice(1), 'database');
  if (!role) throw new HubUrlError('The hub address must name your PostgreSQL role (ROLE@HOST).');
  if (!database) throw new HubUrlError('The hub address must name a database (…/DATABASE).');
  if (/[?&]password=/i.test(query ?? '')) {
    throw new HubUrlError(
      'Give the password before the host (ROLE:PASSWORD@HOST), not as a parameter.',
    );
  }
  hostsOfAddress(text.trim()); // the hosts and libpq's connection parameters, checked now
  return {
    address: `${scheme}://${encodeURIComponent(role)}@${hosts}${path ?? ''}${query ?? ''}`,
    role,
    password: password === '' ? undefined : password,
    database,
  };
}

/** The keychain account of a hub's password: its address (role, hosts, database) without it. */
export const hubAccount = (address: string) => `team-hub ${address}`;

/** libpq's `target_session_attrs`: which of the address's hosts a session may use. */
export const SESSION_ATTRS = [
  'any',
  'read-write',
  'read-only',
  'primary',
  'standby',
  'prefer-standby',
] as const;
export type SessionAttrs = (typeof SESSION_ATTRS)[number];

export interface HubHost {
  host: string;
  port: number;
}

export interface HubHosts {
  /** In the address's order: libpq tries them in it. */
  hosts: HubHost[];
  attrs: SessionAttrs;
  /** libpq's `connect_timeout`, per host (seconds; under 2 counts as 2); null: not given. */
  connectTimeoutSeconds: number | null;
}

/** One `host[:port]` of a host list (`[::1]:5433` for IPv6), port 5432 when not given. */
function hostOf(part: string): HubHost {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d*))?$/.exec(part);
  if (!m) throw new HubUrlError(`The hub address's host "${part}" is not HOST or HOST:PORT.`);
  const port = m[3] ? Number(m[3]) : 5432;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new HubUrlError(`The hub address's port "${m[3]}" is not a port number.`);
  }
  return { host: decode(m[1] ?? m[2] ?? '', 'host'), port };
}

/**
 * The hosts of an address and how to choose among them, as libpq reads its URL form:
 * `postgresql://ROLE@h1:5432,h2:5433/db?target_session_attrs=read-write&connect_timeout=5`.
 */
export function hostsOfAddress(address: string): HubHosts {
  const m = FORM.exec(address.trim());
  if (!m || !m[3]) throw new HubUrlError('The hub address must name a host.');
  const params = new URLSearchParams((m[5] ?? '').slice(1));
  if (params.has('host') || params.has('hostaddr') || params.has('port')) {
    throw new HubUrlError(
      "Give the hub's hosts and ports in the address (ROLE@h1:5432,h2:5433/DATABASE), not as parameters.",
    );
  }
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (!(SESSION_ATTRS as readonly string[]).includes(attrs)) {
    throw new HubUrlError(
      `target_session_attrs must be one of ${SESSION_ATTRS.join(', ')} (the address has "${attrs}").`,
    );
  }
  const timeout = params.get('connect_timeout');
  if (timeout !== null && !/^-?\d+$/.test(timeout.trim())) {
    throw new HubUrlError(`connect_timeout must be a whole number of seconds (not "${timeout}").`);
  }
  // libpq: zero or less waits for ever (null here: the app's own default); 1 counts as 2.
  const seconds = timeout === null ? 0 : Number(timeout);
  return {
    hosts: m[3].split(',').map(hostOf),
    attrs: attrs as SessionAttrs,
    connectTimeoutSeconds: seconds > 0 ? Math.max(2, seconds) : null,
  };
}
