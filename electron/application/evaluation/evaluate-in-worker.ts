/** Runs one evaluation of the library on a thread of its own and answers its report. */
import { Worker } from 'node:worker_threads';
import type { EvaluationReport } from '../../core/evaluation/evaluation-types.js';
import { requireWorkerScript } from '../../node-lib/worker-script.js';

export interface EvaluationJob {
  file: string;
  nativeBinding?: string | undefined;
  solution: string;
  minScore: number;
  mistakeLimit: number;
  targetPrecision: number;
  /** Also COCOeval's summary figures (EvaluationOptions.coco). */
  coco?: boolean;
}

export function evaluateInWorker(job: EvaluationJob): Promise<EvaluationReport> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(requireWorkerScript(import.meta.url, 'evaluate-worker.js'), {
      workerData: job,
    });
    let answered = false;
    worker.once('message', (msg: { report?: EvaluationReport; error?: string }) => {
      answered = true;
      if (msg.report) resolve(msg.report);
      else reject(new Error(msg.error ?? 'The evaluation failed.'));
    });
    worker.once('error', (err) => {
      answered = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`The evaluation thread stopped (exit ${code}).`));
    });
  });
}
