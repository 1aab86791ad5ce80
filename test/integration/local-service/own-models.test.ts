/**
 * Issue 27 §2: own ONNX detectors added with `models add`, served by the embedded service beside
 * its built-in models, decoded per layout to the pixel; an untrusted file is refused with one
 * clear error, and a model that breaks after being added leaves the others served.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOwnModel } from '../../../electron/local-service/onnx/own-model-add.js';
import { ownModels } from '../../support/own-model-files.js';
import { pollJob } from '../../support/poll-job.js';
import { clip } from '../../support/synth-media.js';
import { startFixture, type Fixture } from '../../support/service-fixture.js';
import { tempDir } from '../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
let f: Fixture;
let data: string;
const notes = new Map<string, string[]>();

async function write(name: string, bytes: Uint8Array): Promise<string> {
  const file = join(t.dir, name);
  await writeFile(file, bytes);
  return file;
}

beforeAll(async () => {
  t = await tempDir('labeldesk-own-models-');
  data = join(t.dir, 'service');
  const names = join(t.dir, 'data.yaml');
  await writeFile(names, 'path: ../datasets\nnames:\n  0: cat\n  1: dog\n');
  const text = join(t.dir, 'names.txt');
  await writeFile(text, 'cat\ndog\n');
  const add = async (
    id: string,
    bytes: Uint8Array,
    o: { type?: string; namesFile?: string } = {},
  ) =>
    notes.set(id, (await addOwnModel(data, await write(`${id}.onnx`, bytes), { id, ...o })).notes);
  await add('yolov8', ownModels.yolov8());
  await add('yolov5', ownModels.yolov5(), { namesFile: names });
  await add('yolox', ownModels.yolox());
  await add('rtdetr', ownModels.rtdetr(), { type: 'rtdetr', namesFile: text });
  await add('end2end', ownModels.end2end());
  await add('broken', ownModels.yolov8());
  // Broken after it was added: the service must still serve every other solution.
  await writeFile(join(data, 'models', 'broken', 'model.onnx'), 'not a model any more');
  f = await startFixture({ engine: 'models', workers: 1 }, data);
  await f.service.engine.whenReady();
}, 180_000);
afterAll(async () => {
  await f?.service.close();
  await t.remove();
});

/** 200×100: wider than the square input, so letterboxing shows in every box. */
async function detect(solution: string) {
  const png = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#3a6' } })
    .png()
    .toBuffer();
  const res = await f.upload('/infer/image', {
    solution,
    file: new Blob([png]),
    filename: 'a.png',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (
    res.body as { detections: { label: string; score: number; bboxPx: object }[] }
  ).detections.map((d) => [d.label, d.score, d.bboxPx]);
}

const px = (x: number, y: number, w: number, h: number) => ({ x, y, w, h });

describe('own ONNX models in the embedded service', () => {
  it('YOLOv8: names and input size from metadata, centred letterbox, class-wise NMS', async () => {
    expect(await detect('yolov8')).toEqual([
      ['dog', 0.9, px(50, 25, 100, 50)],
      ['cat', 0.6, px(53.1, 25, 100, 50)],
    ]);
    expect(notes.get('yolov8')?.join(' ')).toMatch(/assumed yolov8/);
  });

  it('YOLOv5: objectness × class, names from a data YAML', async () => {
    expect(await detect('yolov5')).toEqual([
      ['dog', 0.9, px(50, 25, 100, 50)],
      ['cat', 0.4, px(50, 25, 100, 50)],
    ]);
    expect(notes.get('yolov5')?.join(' ')).toMatch(/assumed yolov5: three anchors per grid cell/);
  });

  it('YOLOX: raw grid offsets on two strides, top-left letterbox, classes by number', async () => {
    expect(await detect('yolox')).toEqual([
      ['class 0', 0.855, px(50, 25, 100, 50)],
      ['class 1', 0.7, px(50, 0, 50, 50)],
    ]);
  });

  it('RT-DETR: normalised centre boxes on a stretched input, no NMS, names from a text list', async () => {
    expect(await detect('rtdetr')).toEqual([
      ['dog', 0.7, px(50, 25, 100, 50)],
      ['cat', 0.65, px(50, 25, 100, 50)],
      ['cat', 0.3, px(10, 5, 20, 10)],
    ]);
  });

  it('end-to-end: corner boxes with their class, nothing under the floor', async () => {
    expect(await detect('end2end')).toEqual([['class 2', 0.95, px(50, 25, 100, 50)]]);
  });

  it('clip frames too: every sampled frame of a 200×100 clip carries the end-to-end box', async () => {
    const file = await clip(t.dir, 'wide.mp4', 1, '200x100');
    const res = await f.upload('/infer/video', {
      solution: 'end2end',
      file: new Blob([new Uint8Array(await readFile(file))]),
      filename: 'wide.mp4',
    });
    expect(res.status).toBe(202);
    const job = await pollJob(f, res.body.jobId);
    expect(job.status).toBe('succeeded');
    const frames = job.result.frames as { detections: { label: string; bboxPx: object }[] }[];
    expect(frames.length).toBe(5);
    for (const fr of frames)
      expect(fr.detections.map((d) => [d.label, d.bboxPx])).toEqual([
        ['class 2', px(50, 25, 100, 50)],
      ]);
  });

  it('publishes each model as a solution with its card; a broken one is unavailable, the rest served', async () => {
    const catalog = (await f.call('/catalog')).body as {
      solutions: { id: string; classes: string[]; frameCost: object; modelCard?: object }[];
    };
    const v8 = catalog.solutions.find((s) => s.id === 'yolov8');
    expect(v8).toMatchObject({
      classes: ['cat', 'dog'],
      frameCost: { image: 1, videoFrame: 1 },
      modelCard: {
        file: 'yolov8.onnx',
        input: { width: 64, height: 64 },
        type: 'yolov8',
        namesFrom: 'metadata',
      },
    });
    expect(catalog.solutions.map((s) => s.id)).toEqual(
      expect.arrayContaining(['objects', 'yolov5', 'yolox', 'rtdetr', 'end2end', 'broken']),
    );
    const health = (await f.call('/healthz')).body as {
      ai: string;
      solutions: Record<string, string>;
    };
    expect(health.ai).toBe('ready');
    expect(health.solutions).toMatchObject({ broken: 'failed', yolov8: 'ready', face: 'ready' });
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const res = await f.upload('/infer/image', { solution: 'broken', file: new Blob([png]) });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('solution_unavailable');
    expect(res.body.error.message).toMatch(/^broken could not load: onnxruntime cannot load it/);
  });
});

describe('models add refuses what it cannot serve', () => {
  const refusal = async (bytes: Uint8Array, o: { type?: string } = {}) => {
    const file = await write('refused.onnx', bytes);
    return addOwnModel(join(t.dir, 'other'), file, o).then(
      () => 'added',
      (err: Error & { code?: string }) => `${err.code}: ${err.message}`,
    );
  };

  it('a declared type the output cannot be', async () => {
    expect(await refusal(ownModels.yolov8(), { type: 'yolov5' })).toBe(
      'model_type_mismatch: refused.onnx cannot be a yolov5 model: yolov5 gives [1, boxes, 5 + classes]; this gives [1, 6, 84].',
    );
  });

  it('a file that is not ONNX, and external data outside the model’s folder', async () => {
    expect(await refusal(Buffer.from('{"not": "a model"}'))).toMatch(
      /^not_onnx: refused\.onnx is not an ONNX model/,
    );
    expect(await refusal(ownModels.escaping())).toBe(
      'external_data_outside: refused.onnx names external data outside its folder ("../../secret.bin"); refused.',
    );
  });
});
