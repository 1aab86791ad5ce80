/**
 * A hub's address as users paste it: libpq's URL form, with one host or several
 * (`postgresql://role:pw@h1:5432,h2:5433/db?target_session_attrs=read-write&sslmode=verify-full`).
 * WHATWG's URL refuses several hosts, so the parts are read here. The password is taken out: it
 * goes to the keychain, and only the address without it is ever stored or shown.
 */
export class HubUrlError extends Error {
  override readonly name = 'HubUrlError';
  readonly code = 'bad_hub_url';
}

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

export function parseHubUrl(text: string): HubUrl {
  const m = FORM.exec(text.trim());
  if (!m) {
    throw new HubUrlError(
      'The hub address must look like postgresql://ROLE@HOST:PORT/DATABASE (libpq URL form).',
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
  const password = colon < 0 ? undefined : decode(userinfo.slice(colon + 1), 'password');
  const database = decode((path ?? '/').slice(1), 'database');
  if (!role) throw new HubUrlError('The hub address must name your PostgreSQL role (ROLE@HOST).');
  if (!database) throw new HubUrlError('The hub address must name a database (…/DATABASE).');
  if (/[?&]password=/i.test(query ?? '')) {
    throw new HubUrlError(
      'Give the password before the host (ROLE:PASSWORD@HOST), not as a parameter.',
    );
  }
  return {
    address: `${scheme}://${encodeURIComponent(role)}@${hosts}${path ?? ''}${query ?? ''}`,
    role,
    password: password === '' ? undefined : password,
    database,
  };
}

/** The keychain account of a hub's password: its address (role, hosts, database) without it. */
export const hubAccount = (address: string) => `team-hub ${address}`;
