/**
 * The failures the use-cases let through, for their clients (the CLI) to tell apart and word:
 * a bad service address, an export target in the way, an unknown solution, an unreachable
 * service, a busy or damaged library. Secrets are redacted with the same function everywhere.
 */
export { InvalidBaseUrlError, normaliseBaseUrl, redactSecrets } from '../core/credentials/index.js';
export { ExportTargetError } from '../core/export/export-library.js';
export { UnknownSolutionError } from '../core/runner/plan-run.js';
export { NetworkError } from '../core/service/service-errors.js';
export { LibraryBusyError } from '../core/store/library-lock.js';
export { isDamagedDatabase, LibraryDamagedError } from '../core/store/store-error.js';
