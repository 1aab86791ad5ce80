/** Composes the embedded service: store, accounting, engine, jobs and the HTTP routes. */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { buildVersion } from '../node-lib/app-paths.js';
import { migrate, openDatabase } from '../node-lib/sqlite.js';
import { hashSecret, newSecret } from '../node-lib/tokens.js';
import { clockNow } from '../node-lib/clock.js';
import { TOKEN_PREFIX } from './auth/authenticate.js';
import { defaultConfig, type ServiceConfig, type ServiceLimits } from './config.js';
import { ConcurrencyGate, tooManyUploads } from './credits/concurrency.js';
import { CreditLedger } from './credits/ledger.js';
import type { DetectionEngine } from './engine/engine-types.js';
import { createModelsEngine } from './engine/models-engine.js';
import { createNullEngine } from './engine/null-engine.js';
import { createOffEngine } from './engine/off-engine.js';
import { createRoutedServer } from './http/router.js';
import { sweepUploads } from './jobs/sweep-uploads.js';
import { VideoJobs } from './jobs/video-jobs.js';
import { credentialRoutes } from './routes/credential-routes.js';
import { inferImageRoute } from './routes/infer-image-route.js';
import { publicRoutes } from './routes/public-routes.js';
import { videoRoutes } from './routes/video-routes.js';
import { loadSdkSources } from './sdk-sources.js';
import type { ServiceContext } from './service-context.js';
import { listOwnModels, ownSolution } from './onnx/own-models.js';
import { SOLUTIONS } from './solutions.js';
import { CredentialsRepo } from './store/credentials-repo.js';
import { JobsRepo } from './store/jobs-repo.js';
import { SERVICE_MIGRATIONS } from './store/migrations.js';
import { messageOf } from '../shared/error-message.js';

export interface LocalServiceOptions {
  dataDir: string;
  host?: string;
  port?: number;
  keys?: { key: string; frames?: number }[];
  hourFrames?: number;
  engine?: 'models' | 'null';
  /**
   * false: a service for a command that only reads (plan, status, jobs --cancel) on a data folder
   * another process may be analysing with: catalog, health, keys, polls and cancels answer, but no
   * engine is loaded, stored jobs are not resumed and other processes' reservations are left alone.
   */
  analysis?: boolean;
  latencyMs?: number;
  challengeToken?: string;
  /** Overrides of the published limits (tests, benchmarks). */
  limits?: Partial<ServiceLimits>;
  /** The longest one request may take (default 10 minutes: large clip uploads); tests shorten it. */
  requestTimeoutMs?: number;
  /** The longest the request line and headers may take (default 15 s). */
  headersTimeoutMs?: number;
  /** The longest a request body may go without a byte before a 408 (default 30 s). */
  bodyIdleTimeoutMs?: number;
  /** Open connections held at once; past it, 503 (default 256). */
  maxConnections?: number;
  /** Detection workers for the models engine; defaults to the machine's cores. */
  workers?: number;
  log?: (line: string) => void;
  now?: () => number;
}

export interface LocalService {
  url: string;
  version: string;
  config: ServiceConfig;
  engine: DetectionEngine;
  /** The API key created on the very first start when none was given; shown once. */
  createdKey?: string;
  close(): Promise<void>;
}

/** Far above what the app, the CLI and the SDK clients open; low enough that a flood cannot exhaust descriptors. */
const DEFAULT_MAX_CONNECTIONS = 256;
const KEY_SHAPE = /^[A-Za-z0-9_-]{8,200}$/;

export async function startLocalService(options: LocalServiceOptions): Promise<LocalService> {
  const log = options.log ?? (() => undefined);
  const now = options.now ?? clockNow;
  const config = defaultConfig({
    ...(options.hourFrames !== undefined ? { hourFrames: options.hourFrames } : {}),
    ...(options.challengeToken !== undefined ? { challengeToken: options.challengeToken } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const uploadsDir = join(options.dataDir, 'uploads');
  mkdirSync(uploadsDir, { recursive: true });
  const db = openDatabase(join(options.dataDir, 'service.sqlite'));
  migrate(db, SERVICE_MIGRATIONS);
  const credentials = new CredentialsRepo(db);
  const jobsRepo = new JobsRepo(db);
  const createdKey = registerKeys(
    db,
    credentials,
    options.keys ?? [],
    config.defaultApiKeyFrames,
    now(),
  );

  const analysis = options.analysis ?? true;
  // Reservations live only as long as their work: at start, only stored jobs still hold frames.
  if (analysis) {
    jobsRepo.transaction(() => {
      credentials.clearReservations();
      for (const job of jobsRepo.activeJobs())
        credentials.addReservation(job.credential_id, job.frames_reserved);
    });
  }

  // Uploads of requests cut short by a crash are removed; clips of stored jobs stay for their resume.
  const swept = await sweepUploads(
    uploadsDir,
    jobsRepo.activeJobs().map((job) => job.upload_path),
  );
  if (swept > 0) log(`removed ${swept} leftover upload(s) from ${uploadsDir}`);

  const workers = options.workers ?? Math.max(1, Math.min(availableParallelism(), 4));
  const solutions = [
    ...SOLUTIONS,
    ...listOwnModels(options.dataDir, log).map((card) => ownSolution(options.dataDir, card)),
  ];
  const engine = !analysis
    ? createOffEngine(solutions.map((s) => s.id))
    : options.engine === 'null'
      ? createNullEngine({ latencyMs: options.latencyMs ?? 0, solutions })
      : createModelsEngine({ workers, solutions });
  const ledger = new CreditLedger(credentials, config.limits, now);
  const videoJobs = new VideoJobs({
    repo: jobsRepo,
    ledger,
    engine,
    limits: config.limits,
    now,
    log,
    framesInFlight: options.engine === 'null' ? 4 : workers,
  });
  const version = buildVersion();
  const ctx: ServiceContext = {
    config,
    version,
    startedAt: now(),
    now,
    log,
    credentials,
    jobsRepo,
    ledger,
    gate: new ConcurrencyGate(config.limits.maxConcurrentRequests),
    uploadSlots: new ConcurrencyGate(config.limits.maxConcurrentRequests, {
      heldElsewhere: (credentialId) => jobsRepo.queuedCountOf(credentialId),
      refusal: (max) => tooManyUploads(max, Math.ceil(videoJobs.pollIntervalMs() / 1000) + 1),
    }),
    solutions,
    engine,
    videoJobs,
    uploadsDir,
    sdkSources: loadSdkSources(version),
  };
  const server = createRoutedServer(
    [...publicRoutes(ctx), ...credentialRoutes(ctx), inferImageRoute(ctx), ...videoRoutes(ctx)],
    {
      requestTimeoutMs: options.requestTimeoutMs ?? config.times.requestTimeoutMs,
      headersTimeoutMs: options.headersTimeoutMs ?? config.times.headersTimeoutMs,
      bodyIdleTimeoutMs: options.bodyIdleTimeoutMs ?? config.times.bodyIdleTimeoutMs,
      maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
      log,
    },
  );
  const port = options.port ?? 8787;
  const bindHost = options.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, bindHost, () => resolve());
    });
  } catch (err) {
    // Nothing may keep the process alive after a failed start: workers, jobs and the database go.
    await videoJobs.close();
    await engine.close();
    db.close();
    throw listenError(err, bindHost, port);
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // Jobs resume once the engine can run them; failures to load surface through /healthz.
  if (analysis) {
    void engine.whenReady().then(
      () => videoJobs.resumeStored(),
      (err: unknown) => log(`detection engine failed to load: ${String(err)}`),
    );
  }

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    version,
    config,
    engine,
    ...(createdKey ? { createdKey } : {}),
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await videoJobs.close();
        setTimeout(() => server.closeAllConnections(), 1000).unref();
        await stopped;
        await engine.close();
        db.close();
      })()),
  };
}

/** A failed listen, as one sentence naming the address; `code` keeps Node's (EADDRINUSE, EACCES…). */
export class ListenError extends Error {
  override readonly name = 'ListenError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

function listenError(err: unknown, host: string, port: number): ListenError {
  const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
  const where = `port ${port} on ${host}`;
  if (code === 'EADDRINUSE')
    return new ListenError(
      `${where} is already in use; stop what uses it or pick another with --port.`,
      code,
    );
  if (code === 'EACCES')
    return new ListenError(
      `not allowed to listen on ${where}; pick a port above 1023 with --port.`,
      code,
    );
  if (code === 'EADDRNOTAVAIL')
    return new ListenError(`cannot listen on ${where}: this machine has no such address.`, code);
  return new ListenError(`cannot listen on ${where}: ${messageOf(err)}.`, code);
}

/** Registers the --key keys (a new grant replaces the old one); creates one key on a first start without any. */
function registerKeys(
  db: ReturnType<typeof openDatabase>,
  repo: CredentialsRepo,
  keys: readonly { key: string; frames?: number }[],
  defaultFrames: number,
  now: number,
): string | undefined {
  return db.transaction(() => {
    for (const { key, frames } of keys) {
      if (!KEY_SHAPE.test(key))
        throw new Error('an API key must be 8–200 characters of A–Z, a–z, 0–9, _ or -');
      const existing = repo.findByHash(hashSecret(key));
      if (existing) {
        if (frames !== undefined) repo.setFramesGranted(existing.id, frames);
      } else {
        repo.insert(
          {
            id: randomUUID(),
            hash: hashSecret(key),
            audience: 'api_key',
            frames_granted: frames ?? defaultFrames,
          },
          now,
        );
      }
    }
    const anyKey = db.prepare("SELECT 1 FROM credentials WHERE audience = 'api_key' LIMIT 1").get();
    if (anyKey) return undefined;
    const key = newSecret(TOKEN_PREFIX.api_key);
    repo.insert(
      {
        id: randomUUID(),
        hash: hashSecret(key),
        audience: 'api_key',
        frames_granted: defaultFrames,
      },
      now,
    );
    return key;
  })();
}
