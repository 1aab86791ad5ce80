/**
 * Starts TensorFlow.js inside a detection worker: the WebAssembly backend (single-threaded, since
 * each worker is already one thread of our pool), falling back to the plain JS CPU backend.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

const require = createRequire(import.meta.url);

export type BackendName = 'wasm' | 'cpu';

export async function startTensorflow(preferred: BackendName = 'wasm'): Promise<BackendName> {
  // Emscripten in Node reads the .wasm with fs when given a plain directory path (trailing slash
  // required); nothing is fetched.
  const wasmDist = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
  setWasmPaths(`${wasmDist}${path.sep}`);
  // The threaded build wants browser-style workers; our pool gives parallelism instead.
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  if (preferred === 'wasm' && (await tf.setBackend('wasm'))) {
    await tf.ready();
    return 'wasm';
  }
  await tf.setBackend('cpu');
  await tf.ready();
  return 'cpu';
}
