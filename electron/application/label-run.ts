/**
 * Labelling a plan, shared by the app's runs (run-controller.ts) and `labeldesk label`: every
 * file is checked to be still the probed one before it is sent, and paid answers kept unread are
 * read again (no network) before a run, while it holds the library's lock.
 */
import { checkMedia } from '../core/library/media-identity.js';
import { isDiskFull, type DiskState } from '../core/runner/disk-full.js';
import { planRun, type RunPlan } from '../core/runner/plan-run.js';
import { rereadRawAnswers } from '../core/runner/reread-raw-answers.js';
import { setReading } from '../core/runner/service-reading.js';
import type { RunProgress } from '../core/runner/progress.js';
import type { KeyView } from '../core/runner/service-port.js';
import {
  runLabelling,
  stopMessage,
  type RunDeps,
  type RunOptions,
  type RunSummary,
} from '../core/runner/run-labelling.js';

export { isDiskFull, planRun, rereadRawAnswers, setReading, stopMessage };
export type { DiskState, KeyView, RunPlan, RunProgress, RunSummary };

export function labelPlan(
  deps: Omit<RunDeps, 'checkFile'>,
  plan: RunPlan,
  options: RunOptions,
): Promise<RunSummary> {
  return runLabelling({ ...deps, checkFile: checkMedia }, plan, options);
}
