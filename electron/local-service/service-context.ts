import type { ServiceConfig } from './config.js';
import type { ConcurrencyGate } from './credits/concurrency.js';
import type { CreditLedger } from './credits/ledger.js';
import type { DetectionEngine } from './engine/engine-types.js';
import type { VideoJobs } from './jobs/video-jobs.js';
import type { SolutionSpec } from './solutions.js';
import type { CredentialsRepo } from './store/credentials-repo.js';
import type { JobsRepo } from './store/jobs-repo.js';

/** Everything a route handler may use; built once in service.ts. */
export interface ServiceContext {
  config: ServiceConfig;
  version: string;
  startedAt: number;
  now: () => number;
  log: (line: string) => void;
  credentials: CredentialsRepo;
  jobsRepo: JobsRepo;
  ledger: CreditLedger;
  gate: ConcurrencyGate;
  /** Clip uploads in progress plus queued jobs, per token. */
  uploadSlots: ConcurrencyGate;
  /** The built-in solutions and the own models found when the service started. */
  solutions: readonly SolutionSpec[];
  engine: DetectionEngine;
  videoJobs: VideoJobs;
  uploadsDir: string;
  sdkSources: ReadonlyMap<string, { filename: string; contentType: string; body: string }>;
}
