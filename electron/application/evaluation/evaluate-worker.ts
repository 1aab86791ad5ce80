/**
 * The evaluation's thread: reading every reviewed file's boxes and matching them takes seconds on
 * a big library, and the process answering the UI must not wait on it. Answers once and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { evaluate } from '../../core/evaluation/evaluate.js';
import { evaluationImages } from '../../core/evaluation/evaluation-images.js';
import { openDatabase } from '../../node-lib/sqlite.js';
import type { EvaluationJob } from './evaluate-in-worker.js';

const job = workerData as EvaluationJob;
try {
  const db = openDatabase(job.file, { nativeBinding: job.nativeBinding });
  try {
    db.pragma('query_only = ON');
    const report = evaluate(evaluationImages(db, job.solution), {
      minScore: job.minScore,
      mistakeLimit: job.mistakeLimit,
      targetPrecision: job.targetPrecision,
      coco: job.coco === true,
    });
    parentPort?.postMessage({ report });
  } finally {
    db.close();
  }
} catch (err) {
  parentPort?.postMessage({ error: (err as Error).message });
}
