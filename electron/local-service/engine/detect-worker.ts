/** Worker thread entry: loads every model once, then answers detect requests one at a time. */
import { parentPort, workerData } from 'node:worker_threads';
import type { GraphModel } from '@tensorflow/tfjs-converter';
import { detectWith, openModel, type OpenedModel, type OwnModelRun } from '../onnx/onnx-session.js';
import { elapsedSince } from './image-prep.js';
import { loadHumanModel } from './model-files.js';
import type { ModelRunner } from './model-runner.js';
import { runnerFor } from './model-runners.js';
import { startTensorflow } from './tf-runtime.js';
import type { WorkerConfig, WorkerMessage, WorkerRequest } from './worker-protocol.js';
import { messageOf } from '../../shared/error-message.js';

type Loaded =
  | { runner: ModelRunner; model: GraphModel; classes: readonly string[] }
  | { own: OwnModelRun; opened: OpenedModel };

const port = parentPort;
if (!port) throw new Error('detect-worker must run in a worker thread');
const config = workerData as WorkerConfig;
const send = (msg: WorkerMessage): void => port.postMessage(msg);

async function loadAll(): Promise<Map<string, Loaded>> {
  const started = performance.now();
  const backend = await startTensorflow(config.backend);
  const byModel = new Map<string, Promise<GraphModel>>();
  const loaded = new Map<string, Loaded>();
  for (const s of config.solutions) {
    if (s.own) {
      // An own model is untrusted: its failure to load is its solution's alone.
      const own = s.own;
      await openModel(own.file).then(
        (opened) => {
          loaded.set(s.id, { own, opened });
          send({ type: 'solution-ready', solutionId: s.id });
        },
        (err: unknown) =>
          send({ type: 'solution-failed', solutionId: s.id, error: messageOf(err) }),
      );
      continue;
    }
    const runner = runnerFor(s.model);
    if (!runner) throw new Error(`No decoder for model "${s.model}" (solution ${s.id})`);
    // Two solutions naming one model share it.
    let model = byModel.get(s.model);
    if (!model) byModel.set(s.model, (model = loadHumanModel(s.model)));
    loaded.set(s.id, { runner, model: await model, classes: s.classes });
    send({ type: 'solution-ready', solutionId: s.id });
  }
  send({ type: 'ready', backend, loadMs: elapsedSince(started) });
  return loaded;
}

const ready = loadAll();
ready.catch((err: unknown) => send({ type: 'load-failed', error: messageOf(err) }));

// The engine sends one request at a time per worker, but chain anyway so runs never overlap.
let queue: Promise<void> = Promise.resolve();
port.on('message', (req: WorkerRequest) => {
  queue = queue.then(async () => {
    try {
      const solutions = await ready;
      const entry = solutions.get(req.solutionId);
      if (!entry) throw new Error(`Unknown solution "${req.solutionId}"`);
      const started = performance.now();
      const image = { data: req.data, width: req.width, height: req.height };
      const detections =
        'own' in entry
          ? await detectWith(entry.opened, entry.own, image)
          : await entry.runner.run(entry.model, image, entry.classes);
      send({ type: 'result', id: req.id, detections, inferenceMs: elapsedSince(started) });
    } catch (err) {
      send({ type: 'detect-failed', id: req.id, error: messageOf(err) });
    }
  });
});
