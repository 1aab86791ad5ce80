/** A team operation's failure: a code and one sentence, as every LabelDesk error. */
export type TeamErrorCode =
  | 'hub_unreachable'
  | 'hub_refused'
  | 'bad_login'
  | 'not_member'
  | 'unknown_role'
  | 'project_exists'
  | 'unknown_project'
  | 'hub_format'
  | 'no_project'
  | 'already_in_project'
  | 'no_password'
  | 'bad_tls'
  | 'hub_tls'
  | 'unknown_file'
  | 'bad_filter';

export class TeamError extends Error {
  override readonly name = 'TeamError';
  constructor(
    readonly code: TeamErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  '57P01',
  '57P02',
  '57P03',
]);

/** A driver or server error as a TeamError (PostgreSQL's SQLSTATE or Node's network code). */
export function teamErrorOf(err: unknown, schema: string): unknown {
  if (err instanceof TeamError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const text = err instanceof Error ? err.message : String(err);
  if (typeof code !== 'string') return err;
  if (NETWORK.has(code)) {
    return new TeamError(
      'hub_unreachable',
      `The hub cannot be reached (${code}); work goes on locally and syncs when it is back.`,
    );
  }
  if (code === '25006') {
    // A standby, or a primary demoted under us: the hub is away until a primary answers.
    return new TeamError(
      'hub_unreachable',
      'The hub answered read-only (a standby); work goes on locally and syncs when its primary is back.',
    );
  }
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
    return new TeamError(
      'hub_tls',
      `The hub's TLS certificate was not accepted: ${text} (${code}).`,
    );
  }
  if (code === '28P01' || code === '28000') {
    return new TeamError('bad_login', `The hub refused the login: ${text}.`);
  }
  if (code === '42P06')
    return new TeamError('project_exists', 'A project of that name is already in the hub.');
  if (code === '3F000' || (code === '42P01' && text.includes(schema))) {
    return new TeamError('unknown_project', 'There is no such project in the hub.');
  }
  if (code === '42501' || code === '42000') {
    return new TeamError('hub_refused', `The hub refused: ${text}.`);
  }
  return err;
}
