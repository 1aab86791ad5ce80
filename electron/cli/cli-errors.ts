/**
 * How a command's failure is told to the user, and which failures are usage errors (exit 2).
 * A connection failure names the service and says it cannot be reached, in words, instead of a
 * raw `connect ECONNREFUSED`.
 */
import { ExportTargetError } from '../application/export-target.js';
import { UnknownSolutionError } from '../application/plan-paths.js';
import {
  AnswerLimitError,
  InvalidBaseUrlError,
  NetworkError,
  normaliseBaseUrl,
  redactSecrets,
  UsageError,
} from '../application/service-connection.js';
import { nativeModuleProblem } from './native-module-error.js';
import { terminalText } from './terminal-text.js';
import { messageOf } from '../shared/error-message.js';

/** Errors that mean "the command was asked something it cannot do": exit 2, nothing spent. */
export function isUsageError(err: unknown): boolean {
  return (
    err instanceof UsageError ||
    err instanceof UnknownSolutionError ||
    err instanceof InvalidBaseUrlError ||
    err instanceof ExportTargetError
  );
}

/** `--service` checked before a command starts: an absolute http(s) URL, with a hint otherwise. */
export function checkServiceOption(value: string): void {
  try {
    normaliseBaseUrl(value);
  } catch (err) {
    const hint = /^[\w.-]+(:\d+)?(\/.*)?$/.test(value) ? ` Did you mean http://${value} ?` : '';
    const reason =
      err instanceof Error ? err.message.replace(/^Invalid service base URL: /, '') : '';
    throw new UsageError(
      `--service takes a base URL with its scheme, e.g. http://127.0.0.1:8787 (${reason}).${hint}`,
    );
  }
}

/** Words for the usual reasons a connection fails (the errno code is kept in parentheses). */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'nothing is listening there',
  ENOTFOUND: 'the host name is unknown',
  EAI_AGAIN: 'the host name could not be looked up',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ETIMEDOUT: 'the connection timed out',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
};

function errnoOf(err: unknown): string | undefined {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code in UNREACHABLE) return code;
  }
  return undefined;
}

/** One line for the terminal (no secret, no control character). */
export function describeError(err: unknown, service: string | undefined): string {
  if (err instanceof NetworkError) {
    const where = service ? `The service at ${service}` : 'The embedded service';
    const code = errnoOf(err);
    const why =
      err.reason === 'timeout'
        ? 'it did not answer in time'
        : code
          ? `${UNREACHABLE[code]} (${code})`
          : err.message;
    return terminalText(redactSecrets(`${where} cannot be reached: ${why}.`));
  }
  if (err instanceof AnswerLimitError) {
    const where = service ? `The service at ${service}` : 'The embedded service';
    const call = err.request ? ` (${err.request})` : '';
    return terminalText(redactSecrets(`${where}: ${err.message}${call}; the call was abandoned.`));
  }
  const native = nativeModuleProblem(err);
  if (native) return terminalText(native);
  return terminalText(redactSecrets(messageOf(err)));
}
