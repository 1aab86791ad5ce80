/**
 * Which service a command talks to: `--service URL` with the key from LABELDESK_API_KEY or the
 * keychain, or by default the embedded service started in-process on loopback with its own key.
 */
import { join } from 'node:path';
import { ServiceClient } from '../core/service/service-client.js';
import type { ServicePort } from '../core/runner/service-port.js';
import type { LocalService } from '../local-service/service.js';
import type { AppContext } from './app-context.js';

/** The keychain account of the embedded service's key (its port changes from run to run). */
export const EMBEDDED_ACCOUNT = 'http://labeldesk-embedded.invalid';

export interface ServiceConnection {
  baseUrl: string;
  client: ServiceClient;
  port: ServicePort;
  embedded?: LocalService;
  close(): Promise<void>;
}

export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

export async function connectService(
  app: AppContext,
  options: { service?: string; engine?: 'models' | 'null'; waitForModels?: boolean },
): Promise<ServiceConnection> {
  if (options.service) {
    const resolved = await app.credentials.resolveKey(options.service);
    if (!resolved) {
      throw new CliUsageError(
        `No API key for ${options.service}: run \`labeldesk login --service ${options.service}\`, or set LABELDESK_API_KEY for one run.`,
      );
    }
    const client = new ServiceClient({ baseUrl: options.service, apiKey: resolved.key });
    return {
      baseUrl: options.service,
      client,
      port: portOf(options.service, client),
      close: async () => undefined,
    };
  }
  const key =
    process.env['LABELDESK_API_KEY'] ?? (await app.credentials.ensureEmbeddedKey(EMBEDDED_ACCOUNT));
  const engine =
    options.engine ?? (process.env['LABELDESK_EMBEDDED_ENGINE'] === 'null' ? 'null' : 'models');
  // Loaded only here: `--service` runs never pay for the service's modules (busboy, its routes…).
  const { startLocalService } = await import('../local-service/service.js');
  const embedded = await startLocalService({
    dataDir: join(app.home, 'service'),
    port: 0,
    keys: [{ key }],
    engine,
  });
  if (options.waitForModels) await embedded.engine.whenReady();
  const client = new ServiceClient({ baseUrl: embedded.url, apiKey: key });
  // Results and the ledger are kept under a stable name: the embedded service's port changes every run.
  return {
    baseUrl: embedded.url,
    client,
    port: portOf(EMBEDDED_ACCOUNT, client),
    embedded,
    close: () => embedded.close(),
  };
}

/** The runner's view of a client, named by the service identity its results are stored under. */
function portOf(baseUrl: string, client: ServiceClient): ServicePort {
  return {
    baseUrl,
    catalog: (signal) => client.catalog(signal),
    keyStatus: (signal) => client.keyStatus(signal),
    inferImage: (input) => client.inferImage(input),
    submitVideo: (input) => client.submitVideo(input),
    job: (id, signal) => client.job(id, signal),
    cancelJob: (id) => client.cancelJob(id),
  };
}
