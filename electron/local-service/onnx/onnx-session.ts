/**
 * Runs an own ONNX detector with onnxruntime-node on the CPU, one intra-op thread: each detection
 * worker is already one thread of the service's pool. Its first input takes the image, its first
 * output is decoded by layout.
 */
import { InferenceSession, Tensor } from 'onnxruntime-node';
import type { EngineDetection, RgbImage } from '../engine/engine-types.js';
import { decodeOutput } from './onnx-decode.js';
import { prepareInput } from './onnx-prep.js';
import { inputRecipe, type OnnxType } from './onnx-types.js';
import { messageOf } from '../../shared/error-message.js';

export interface OwnModelRun {
  file: string;
  type: OnnxType;
  input: { width: number; height: number };
  classes: readonly string[];
}

export interface OpenedModel {
  session: InferenceSession;
  inputName: string;
  outputName: string;
}

const message = (err: unknown) => messageOf(err).trim();

export async function openModel(file: string): Promise<OpenedModel> {
  let session: InferenceSession;
  try {
    session = await InferenceSession.create(file, {
      executionProviders: ['cpu'],
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
  } catch (err) {
    throw new Error(`onnxruntime cannot load it: ${message(err)}`);
  }
  const inputName = session.inputNames[0];
  const outputName = session.outputNames[0];
  if (inputName === undefined || outputName === undefined) {
    await session.release();
    throw new Error('it has no input or no output');
  }
  return { session, inputName, outputName };
}

/** Runs the model on an NCHW float input; answers its first output's values and shape. */
export async function runRaw(
  model: OpenedModel,
  data: Float32Array,
  input: { width: number; height: number },
): Promise<{ data: Float32Array; dims: number[] }> {
  const feed = new Tensor('float32', data, [1, 3, input.height, input.width]);
  let out;
  try {
    out = (await model.session.run({ [model.inputName]: feed }))[model.outputName];
  } catch (err) {
    throw new Error(`onnxruntime could not run it: ${message(err)}`);
  }
  if (!out || out.type !== 'float32')
    throw new Error(`its first output is ${out?.type ?? 'missing'}, not float32`);
  return { data: out.data as Float32Array, dims: [...out.dims] };
}

export async function detectWith(
  model: OpenedModel,
  spec: OwnModelRun,
  image: RgbImage,
): Promise<EngineDetection[]> {
  const { data, place } = prepareInput(image, spec.input, inputRecipe(spec.type));
  const out = await runRaw(model, data, spec.input);
  return decodeOutput({ ...spec, ...out, place });
}
