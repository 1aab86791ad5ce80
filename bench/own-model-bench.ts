/**
 * Issue 27 §2: images per second of a YOLOv8n-sized own ONNX model through the embedded service
 * (HTTP, multipart, decode, letterbox, onnxruntime in the detection workers, decoding, NMS) against
 * onnxruntime-node run bare on the same prepared input, one session per worker thread, in the same
 * run; CenterNet (`objects`) through the same service beside it. Goal: service ≥ 0.8 × bare.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { addOwnModel } from '../electron/local-service/onnx/own-model-add.js';
import { prepareInput } from '../electron/local-service/onnx/onnx-prep.js';
import { inputRecipe } from '../electron/local-service/onnx/onnx-types.js';
import { decodeImage, IMAGE_FORMATS } from '../electron/local-service/media/image-decode.js';
import { realMediaDir } from '../test/support/real-media.js';
import { WORKERS } from './bare-models.js';
import { load, multipartBody } from './load-client.js';
import { BENCH_KEY, startModelsService } from './model-throughput.js';
import { fmt, printFigures, type Figure } from './report.js';
import { yoloSizedModel } from './yolo-sized-model.js';

const require = createRequire(import.meta.url);

/** A bare worker: one session, one intra-op thread (as the service's workers), `runs` runs. */
const BARE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.ort);
(async () => {
  const s = await ort.InferenceSession.create(workerData.file, { executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
  const x = new ort.Tensor('float32', workerData.input, [1, 3, 640, 640]);
  await s.run({ [s.inputNames[0]]: x });
  parentPort.postMessage('ready');
  parentPort.once('message', async (runs) => {
    for (let i = 0; i < runs; i++) await s.run({ [s.inputNames[0]]: x });
    parentPort.postMessage('done');
  });
})();
`;

async function bareRate(file: string, input: Float32Array, requests: number): Promise<number> {
  const ort = require.resolve('onnxruntime-node');
  const workers = Array.from(
    { length: WORKERS },
    () => new Worker(BARE_WORKER, { eval: true, workerData: { file, input, ort } }),
  );
  const said = (w: Worker, what: string) =>
    new Promise<void>((resolve, reject) => {
      w.once('message', (m) => (m === what ? resolve() : reject(new Error(String(m)))));
      w.once('error', reject);
    });
  try {
    await Promise.all(workers.map((w) => said(w, 'ready')));
    const started = performance.now();
    const runs = Math.ceil(requests / WORKERS);
    await Promise.all(
      workers.map((w) => {
        const done = said(w, 'done');
        w.postMessage(runs);
        return done;
      }),
    );
    return (runs * WORKERS) / ((performance.now() - started) / 1000);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

export async function benchOwnModel(): Promise<void> {
  const data = await mkdtemp(join(tmpdir(), 'labeldesk-bench-own-'));
  const file = join(data, 'yolov8n-sized.onnx');
  await writeFile(file, yoloSizedModel());
  await addOwnModel(data, file, { id: 'yolo8n-sized' });
  const { server } = await startModelsService(data);
  try {
    const bytes = await readFile(join(await realMediaDir(), 'messi5.jpg'));
    const { rgb } = await decodeImage(bytes, {
      maxPixels: Number.MAX_SAFE_INTEGER,
      maxAnalysedSide: 1024,
      formats: IMAGE_FORMATS,
    });
    const input = prepareInput(rgb, { width: 640, height: 640 }, inputRecipe('yolov8')).data;
    const concurrency = WORKERS * 2;
    const figures: Figure[] = [];
    const service = async (solution: string, requests: number) => {
      const payload = multipartBody(
        { solution },
        { name: 'messi5.jpg', type: 'image/jpeg', bytes },
      );
      const common = { url: server.url, path: '/infer/image', token: BENCH_KEY, payload };
      return (await load({ ...common, concurrency, requests })).perSecond;
    };
    const requests = 12;
    await service('yolo8n-sized', 4);
    // Alternating rounds, best of each: a burst of other load hits one round, not the figure.
    let own = 0;
    let bare = 0;
    for (let round = 0; round < 2; round++) {
      own = Math.max(own, await service('yolo8n-sized', requests));
      bare = Math.max(bare, await bareRate(file, input, requests));
    }
    await service('objects', 4);
    const centernet = await service('objects', requests);
    const ratio = own / bare;
    figures.push({
      name: `YOLOv8n-sized ONNX (640×640, [1, 84, 8400]) on messi5.jpg, ${WORKERS} workers`,
      value:
        `service ${fmt(own, 2)} img/s, onnxruntime-node bare ${fmt(bare, 2)} img/s, ` +
        `ratio ${fmt(ratio, 2)}; CenterNet (objects) through the same service ${fmt(centernet, 2)} img/s`,
      goal: 'service ≥ 0.8 × bare',
      met: ratio >= 0.8,
    });
    printFigures('Own ONNX model (images)', figures);
  } finally {
    await server.stop();
    await rm(data, { recursive: true, force: true });
  }
}
