/**
 * Own ONNX models of the embedded service (issue 27 §2), for the CLI and the app: they live in
 * the service's data folder (LABELDESK_HOME/service/models), which the service reads at start.
 */
import { join } from 'node:path';
import type { AddOptions, Added } from '../local-service/onnx/own-model-add.js';
import {
  listOwnModels,
  OwnModelError,
  removeOwnModel,
  type OwnModelCard,
} from '../local-service/onnx/own-models.js';
import { UsageError } from './usage-error.js';

export { ONNX_TYPES } from '../local-service/onnx/onnx-types.js';
export type { OwnModelCard };

export const serviceDataDir = (home: string) => join(home, 'service');

/** An own model's refusal, with its code, as a usage error: the sentence is the whole answer. */
async function refusals<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof OwnModelError) throw new UsageError(`${err.code}: ${err.message}`);
    throw err;
  }
}

export async function addModel(dataDir: string, file: string, options: AddOptions): Promise<Added> {
  // Loaded on first use: onnxruntime, tfjs and yaml would cost every start of the app ~0.3 s.
  const { addOwnModel } = await import('../local-service/onnx/own-model-add.js');
  return refusals(() => addOwnModel(dataDir, file, options));
}

export const listModels = (dataDir: string): OwnModelCard[] => listOwnModels(dataDir);

export const removeModel = (dataDir: string, id: string): Promise<void> =>
  refusals(() => removeOwnModel(dataDir, id));
