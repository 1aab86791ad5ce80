/** The contract's "Check service" calls: the report, and the per-service corner/centre setting. */
import { rereadOrigins } from '../core/runner/reread-assumed-origin.js';
import { rereadRawAnswers } from '../core/runner/reread-raw-answers.js';
import { readingFor, readingOf, setReading } from '../core/runner/service-reading.js';
import {
  acquireLibraryLock,
  describeHolder,
  LibraryBusyError,
} from '../core/store/library-lock.js';
import type { RunnerStore } from '../core/runner/runner-store.js';
import { LabelDeskError, type Handlers } from '../shared/contract/index.js';
import { checkService } from './check-service.js';
import type { RunController } from './run-controller.js';
import type { ServiceHub } from './service-hub.js';

type CheckHandlers = Pick<Handlers, 'service.check' | 'service.reading' | 'service.setReading'>;

export function checkHandlers(
  store: RunnerStore,
  hub: ServiceHub,
  runs: RunController,
  home: string,
  keptAnswers: (serviceUrl: string) => number,
): CheckHandlers {
  const check = async (spendFile: string | undefined, solution: string | undefined) => {
    const t = await hub.checkTarget();
    const reading = readingFor(store, t.identity);
    return checkService(
      {
        ...t,
        // The setting as it is now (the person may just have changed it).
        client: t.client.withReading(reading),
        store,
        boxOrigin: reading.boxOrigin,
        keptAnswers: () => keptAnswers(t.identity),
      },
      { ...(spendFile ? { spendFile } : {}), ...(solution ? { solution } : {}) },
    );
  };
  return {
    'service.check': async ({ spendFile, solution }) => {
      if (!spendFile) return check(undefined, solution);
      if (runs.isBusy())
        throw new LabelDeskError('run_active', 'A run is going: check the service when it ends.');
      // Sending a file writes to the library (its cost, the ledger), and the embedded service
      // analyses only for the holder of the library's lock: taken as a run takes it.
      const lock = await acquireLibraryLock(home, { command: 'LabelDesk app check' }).catch(
        (err: unknown) => {
          if (!(err instanceof LibraryBusyError)) throw err;
          const who = err.holder ? describeHolder(err.holder) : 'Another process';
          throw new LabelDeskError('library_busy', `${who} is labelling this library.`);
        },
      );
      try {
        await hub.setAnalysis(true);
        return await check(spendFile, solution);
      } finally {
        await hub.setAnalysis(false).catch(() => undefined);
        lock.release();
        // The credits shown moved (and a cost may have been learnt).
        void hub.refresh().catch(() => undefined);
      }
    },
    'service.reading': async () => readingOf(store, (await hub.checkTarget()).identity),
    'service.setReading': async (reading) => {
      setReading(store, (await hub.checkTarget()).identity, reading);
      // Paid answers kept because they could not be read may read now (no network).
      rereadRawAnswers(store);
      // Answers read while the origin was undecided, or as the boxes decided: read again with
      // the person's choice, which wins.
      rereadOrigins(store);
      return reading;
    },
  };
}
