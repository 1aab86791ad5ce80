/**
 * Which service a command talks to: `--service URL` with the key from LABELDESK_API_KEY or the
 * keychain, or by default the embedded service started in-process on loopback with its own key.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { API_KEY_ENV, KeychainUnavailableError } from '../core/credentials/index.js';
import { readingFor } from '../core/runner/service-reading.js';
import { boxOriginWatch } from './box-origin-watch.js';
import { ServiceClient } from '../core/service/service-client.js';
import type { ServicePort } from '../core/runner/service-port.js';
import type { LocalService } from '../local-service/service.js';
import type { AppContext } from './app-context.js';
import { EMBEDDED_ACCOUNT, servicePortOf } from './service-port.js';
import { UsageError } from './usage-error.js';
import { callDeadlineFloor } from './call-deadline.js';

export { EMBEDDED_ACCOUNT } from './service-port.js';
export { UsageError } from './usage-error.js';
/** Connecting fails with these (a bad address, an unreachable service); secrets are redacted
 *  from anything said about it with the same function everywhere. */
export { InvalidBaseUrlError, normaliseBaseUrl, redactSecrets } from '../core/credentials/index.js';
export { AnswerLimitError, NetworkError } from '../core/service/service-errors.js';

export interface ServiceConnection {
  baseUrl: string;
  client: ServiceClient;
  /** False only for a hosted service with no key, when the caller allowed that (plan, status). */
  hasKey: boolean;
  /** Where the key came from: the OS keychain, memory for this session, or LABELDESK_API_KEY. */
  keySource: 'keychain' | 'memory' | 'environment' | 'none';
  /** The embedded service runs the stand-in engine (tests only). */
  standIn: boolean;
  port: ServicePort;
  embedded?: LocalService;
  close(): Promise<void>;
}

export interface ConnectOptions {
  service?: string;
  /**
   * false for commands that only read (plan, status, jobs --cancel): the embedded service then
   * loads no engine and resumes no stored job, so reading can never advance or fake an analysis.
   */
  analysis?: boolean;
  waitForModels?: boolean;
  /** plan and status work without a key for a hosted service (the catalog and health are public). */
  keyOptional?: boolean;
}

/** A file in LABELDESK_HOME marking it as a test library, where the stand-in engine may run. */
export const TEST_HOME_MARKER = '.labeldesk-test-home';

/**
 * LABELDESK_EMBEDDED_ENGINE=null swaps the models for the deterministic stand-in. It is a test
 * switch: the stand-in's boxes are not real, so it is refused on any library not marked as a test
 * home, and they can never be stored in a user's library as if a model had found them.
 */
function embeddedEngine(home: string, env: NodeJS.ProcessEnv): 'models' | 'null' {
  const wanted = env['LABELDESK_EMBEDDED_ENGINE'];
  if (wanted === undefined || wanted === '' || wanted === 'models') return 'models';
  if (wanted !== 'null') {
    throw new UsageError(`LABELDESK_EMBEDDED_ENGINE must be "models" or "null", not "${wanted}".`);
  }
  if (!existsSync(join(home, TEST_HOME_MARKER))) {
    throw new UsageError(
      `LABELDESK_EMBEDDED_ENGINE=null is a test switch: its stand-in boxes are not real, so it runs only on a LABELDESK_HOME marked as a test library (a file named ${TEST_HOME_MARKER}), and ${home} is not. Unset it to use the real models.`,
    );
  }
  return 'null';
}

export async function connectService(
  app: AppContext,
  options: ConnectOptions,
  notice: (line: string) => void = (line) =>
    process.stderr.write(`labeldesk: ${line}
`),
): Promise<ServiceConnection> {
  if (options.service) {
    const resolved = await app.credentials.resolveKey(options.service).catch((err: unknown) => {
      // Reading without a key is allowed; a missing keychain then just means no key.
      if (options.keyOptional && err instanceof KeychainUnavailableError) return undefined;
      throw err;
    });
    if (!resolved && !options.keyOptional) {
      throw new UsageError(
        `No API key for ${options.service}: run \`labeldesk login --service ${options.service}\`, or set LABELDESK_API_KEY for one run.`,
      );
    }
    const client = new ServiceClient({
      baseUrl: options.service,
      ...(resolved ? { apiKey: resolved.key } : {}),
      reading: readingFor(app.store, options.service),
      deadlineFloorMs: callDeadlineFloor(app.store, app.env),
    });
    return {
      baseUrl: options.service,
      client,
      hasKey: resolved !== undefined,
      keySource: resolved ? (resolved.source === 'env' ? 'environment' : 'keychain') : 'none',
      standIn: false,
      port: servicePortOf(
        options.service,
        client,
        boxOriginWatch(app.store, options.service, notice),
      ),
      close: async () => undefined,
    };
  }
  const analysis = options.analysis ?? true;
  const engine = analysis ? embeddedEngine(app.home, app.env) : 'models';
  const { key, source } = await embeddedKey(app, notice);
  // Loaded only here: `--service` runs never pay for the service's modules (busboy, its routes…).
  const { startLocalService } = await import('../local-service/service.js');
  const embedded = await startLocalService({
    dataDir: join(app.workHome, 'service'),
    port: 0,
    keys: [{ key }],
    engine,
    analysis,
  });
  if (options.waitForModels) await embedded.engine.whenReady();
  const client = new ServiceClient({
    baseUrl: embedded.url,
    apiKey: key,
    deadlineFloorMs: callDeadlineFloor(app.store, app.env),
  });
  // Results and the ledger are kept under a stable name: the embedded service's port changes every run.
  return {
    baseUrl: embedded.url,
    client,
    hasKey: true,
    keySource: source,
    standIn: engine === 'null',
    port: servicePortOf(EMBEDDED_ACCOUNT, client),
    embedded,
    close: () => embedded.close(),
  };
}

/** LABELDESK_API_KEY, else the keychain's key, else (no keychain) one kept in memory for this run. */
async function embeddedKey(
  app: AppContext,
  notice: (line: string) => void,
): Promise<{ key: string; source: 'environment' | 'keychain' | 'memory' }> {
  const fromEnv = app.env[API_KEY_ENV]?.trim();
  if (fromEnv) return { key: fromEnv, source: 'environment' };
  const session = await app.credentials.embeddedKeyForSession(EMBEDDED_ACCOUNT);
  if (session.kept === 'memory') {
    notice(
      "no OS keychain here, so the embedded service's key is kept in memory for this run only.",
    );
  }
  return { key: session.key, source: session.kept };
}
