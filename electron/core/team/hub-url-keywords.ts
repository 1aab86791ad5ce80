/**
 * libpq's other form of a connection string, keyword/value pairs
 * (`host=h1,h2 port=5432,5433 dbname=x user=u target_session_attrs=read-write connect_timeout=3`),
 * read as libpq's conninfo_parse reads it: pairs separated by whitespace, spaces allowed around
 * `=`, a value in single quotes may hold spaces, and a backslash takes the next character as it
 * is (in or out of quotes). The result is the same address in the URL form (hub-url.ts), which is
 * what is stored and shown; the password is handed back apart, for the keychain.
 */
import { HubUrlError } from './hub-url-error.js';

/** Keywords a hub address may use here (their meaning is libpq's). */
const USED = [
  'host',
  'port',
  'dbname',
  'user',
  'password',
  'connect_timeout',
  'target_session_attrs',
  'sslmode',
  'sslrootcert',
  'application_name',
] as const;

/** libpq's other keywords: real, but not something a hub address of LabelDesk can honour. */
const NOT_USED = new Set([
  'hostaddr',
  'passfile',
  'channel_binding',
  'client_encoding',
  'options',
  'fallback_application_name',
  'keepalives',
  'keepalives_idle',
  'keepalives_interval',
  'keepalives_count',
  'tcp_user_timeout',
  'replication',
  'gssencmode',
  'sslcompression',
  'sslcert',
  'sslkey',
  'sslpassword',
  'sslcrl',
  'sslcrldir',
  'sslsni',
  'requirepeer',
  'ssl_min_protocol_version',
  'ssl_max_protocol_version',
  'krbsrvname',
  'gsslib',
  'service',
  'load_balance_hosts',
  'require_auth',
  'sslcertmode',
]);

type Keyword = (typeof USED)[number];

/** The pairs of a keyword/value string, in order (a keyword given twice: the last one counts). */
export function readKeywordPairs(text: string): Map<string, string> {
  const pairs = new Map<string, string>();
  let i = 0;
  const space = (c: string | undefined) => c !== undefined && /\s/.test(c);
  while (i < text.length) {
    while (space(text[i])) i += 1;
    if (i >= text.length) break;
    const start = i;
    while (i < text.length && text[i] !== '=' && !space(text[i])) i += 1;
    const keyword = text.slice(start, i);
    while (space(text[i])) i += 1;
    if (text[i] !== '=') {
      throw new HubUrlError(`The hub address has "${keyword}" without "=" after it.`);
    }
    i += 1;
    while (space(text[i])) i += 1;
    let value = '';
    if (text[i] === "'") {
      i += 1;
      for (;;) {
        if (i >= text.length) {
          throw new HubUrlError(`The hub address's value of ${keyword} has no closing quote.`);
        }
        const c = text[i] as string;
        if (c === "'") break;
        if (c === '\\' && i + 1 < text.length) i += 1;
        value += text[i];
        i += 1;
      }
      i += 1;
    } else {
      while (i < text.length && !space(text[i])) {
        if (text[i] === '\\' && i + 1 < text.length) i += 1;
        value += text[i];
        i += 1;
      }
    }
    if (!keyword) throw new HubUrlError('The hub address has "=" without a keyword before it.');
    pairs.set(keyword, value);
  }
  return pairs;
}

/** Whether a hub address is in the keyword/value form (not a URL). */
export const isKeywordForm = (text: string) =>
  !/^postgres(?:ql)?:\/\//.test(text.trim()) && /^\s*[A-Za-z_]+\s*=/.test(text);

const hostLabel = (host: string) =>
  host.includes(':') ? `[${host}]` : encodeURIComponent(host).replaceAll('%2C', ',');

/**
 * The same address in the URL form, and its password. Refuses keywords libpq does not know, or
 * knows but a hub address does not use, each by name.
 */
export function keywordsToUrl(text: string): { url: string; password: string | undefined } {
  const pairs = readKeywordPairs(text);
  for (const k of pairs.keys()) {
    if (NOT_USED.has(k)) {
      throw new HubUrlError(`A LabelDesk hub address does not take libpq's "${k}".`);
    }
    if (!(USED as readonly string[]).includes(k)) {
      throw new HubUrlError(
        `"${k}" is not a libpq connection keyword (a hub address takes ${USED.join(', ')}).`,
      );
    }
  }
  const get = (k: Keyword) => pairs.get(k);
  const user = get('user');
  if (!user) throw new HubUrlError('The hub address must name your PostgreSQL role (user=ROLE).');
  const hosts = (get('host') ?? '').split(',');
  if (hosts.some((h) => h === '')) {
    throw new HubUrlError('The hub address must name each host (host=H1,H2).');
  }
  if (hosts.some((h) => h.startsWith('/'))) {
    throw new HubUrlError(
      'A hub is reached over TCP: give host names or addresses, not a socket folder.',
    );
  }
  const ports = (get('port') ?? '').split(',');
  if (ports.length !== 1 && ports.length !== hosts.length) {
    throw new HubUrlError(
      `The hub address gives ${hosts.length} hosts and ${ports.length} ports (one port, or one per host).`,
    );
  }
  const hostList = hosts.map((h, n) => {
    const port = (ports.length === 1 ? ports[0] : ports[n])?.trim() ?? '';
    return port ? `${hostLabel(h)}:${port}` : hostLabel(h);
  });
  // libpq: the database defaults to the user's name.
  const dbname = get('dbname') || user;
  const params = new URLSearchParams();
  for (const k of USED.slice(5)) {
    const v = get(k);
    if (v !== undefined) params.set(k, v);
  }
  const query = params.toString();
  const password = get('password');
  return {
    url: `postgresql://${encodeURIComponent(user)}@${hostList.join(',')}/${encodeURIComponent(dbname)}${query ? `?${query}` : ''}`,
    password: password === '' ? undefined : password,
  };
}
