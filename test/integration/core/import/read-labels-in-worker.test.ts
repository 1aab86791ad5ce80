/**
 * Label files are read on a thread of their own: the same files and issues as an in-process read,
 * an abort ends the thread, and a large file never holds the caller's event loop the way parsing it
 * in-process does (both measured in the same run).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLabels } from '../../../../electron/core/import/read-labels.js';
import {
  readHeldLabelsInWorker,
  readLabelsInWorker,
} from '../../../../electron/core/import/read-labels-in-worker.js';
import { withBoxes } from '../../../../electron/core/import/held-file.js';
import {
  FILES_PER_MESSAGE,
  type ReadLabelsMessage,
} from '../../../../electron/core/import/read-labels-messages.js';
import { requireWorkerScript } from '../../../../electron/node-lib/worker-script.js';
import { tempDir } from '../../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
beforeAll(async () => (t = await tempDir('labeldesk-read-worker-')));
afterAll(() => t.remove());

const object = (i: number) =>
  `<object><name>c${i % 7}</name><bndbox><xmin>${1 + (i % 90)}</xmin><ymin>2</ymin>` +
  `<xmax>${100 + (i % 90)}</xmax><ymax>50</ymax></bndbox></object>`;

/** A folder of VOC files: `n` ordinary ones (objects each), one unclosed and one not XML. */
async function vocFolder(name: string, n: number, objects: number): Promise<string> {
  const dir = join(t.dir, name);
  await mkdir(dir);
  for (let f = 0; f < n; f++) {
    const body = Array.from({ length: objects }, (_, i) => object(i)).join('');
    const xml = `<annotation><filename>f${f}.jpg</filename><size><width>640</width><height>480</height></size>${body}</annotation>`;
    await writeFile(join(dir, `f${String(f).padStart(4, '0')}.xml`), xml);
  }
  await writeFile(join(dir, 'unclosed.xml'), `<annotation>${'<object><name>x'.repeat(5000)}`);
  await writeFile(join(dir, 'text.xml'), 'just some words');
  return dir;
}

/** The longest the event loop was held while `work` ran, in ms. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  await work();
  h.disable();
  return h.max / 1e6;
}

describe('readLabelsInWorker', () => {
  it('reads what an in-process read reads, files and issues alike', async () => {
    const dir = await vocFolder('same', 1200, 3);
    const inProcess = await readLabels('voc', dir);
    const threaded = await readLabelsInWorker('voc', dir);
    expect(threaded.files).toHaveLength(1200);
    expect(threaded).toEqual(inProcess);
    expect(threaded.issues.map((i) => [i.source, i.code])).toEqual([
      ['text.xml', 'malformed'],
      ['unclosed.xml', 'malformed'],
    ]);
  });

  it('can hold the boxes of each file as JSON text until it is planned, with their count', async () => {
    const dir = await vocFolder('held', 30, 4);
    const inProcess = await readLabels('voc', dir);
    const held = await readHeldLabelsInWorker('voc', dir);
    expect(held.files.every((f) => f.packed.numbers.length > 0 && !('boxes' in f))).toBe(true);
    expect(held.files.map((f) => f.boxCount)).toEqual(inProcess.files.map((f) => f.boxes.length));
    expect(held.files.map(withBoxes)).toEqual(inProcess.files);
    expect(held.issues).toEqual(inProcess.issues);
  });

  it('an abort ends the read', async () => {
    const dir = await vocFolder('abort', 50, 2000);
    const ac = new AbortController();
    const read = readLabelsInWorker('voc', dir, ac.signal);
    ac.abort(new Error('stopped by the test'));
    await expect(read).rejects.toThrow('stopped by the test');
  });

  it('a large file does not hold the caller the way an in-process parse does', async () => {
    const dir = await vocFolder('large', 1, 60_000);
    const inProcess = await longestStall(() => readLabels('voc', dir));
    const threaded = await longestStall(() => readLabelsInWorker('voc', dir));
    expect(inProcess).toBeGreaterThan(150);
    expect(threaded).toBeLessThan(inProcess / 3);
  });

  /** The reading thread on `dir`'s VOC files, and the messages it sent so far. */
  function readingThread(dir: string, inFlight?: number) {
    const module = new URL(
      '../../../../electron/core/import/read-labels-in-worker.ts',
      import.meta.url,
    );
    const worker = new Worker(requireWorkerScript(module.href, 'read-labels-worker.js'), {
      workerData: { format: 'voc', source: dir, ...(inFlight ? { inFlight } : {}) },
    });
    const got: ReadLabelsMessage[] = [];
    let arrived: () => void = () => {};
    worker.on('message', (m: ReadLabelsMessage) => {
      got.push(m);
      arrived();
    });
    const next = () => new Promise<void>((r) => (arrived = r));
    /** Many turns of this loop, and of the worker's. */
    const turns = async () => {
      for (let i = 0; i < 200; i++) await new Promise((r) => setImmediate(r));
    };
    return { worker, got, next, turns };
  }

  it('sends the next batch only when asked: queued batches would all land in one turn', async () => {
    const dir = await vocFolder('batches', FILES_PER_MESSAGE * 2 + 1, 1);
    const { worker, got, next, turns } = readingThread(dir);
    try {
      await next();
      // Nothing more comes unasked.
      await turns();
      expect(got.map((m) => m.kind)).toEqual(['files']);
      for (const _ of [1, 2, 3]) {
        const coming = next();
        worker.postMessage('more');
        await coming;
      }
      expect(got.map((m) => m.kind)).toEqual(['files', 'files', 'files', 'done']);
      const files = got.flatMap((m) =>
        m.kind === 'files' ? (JSON.parse(m.json) as unknown[]) : [],
      );
      expect(files).toHaveLength(FILES_PER_MESSAGE * 2 + 1);
    } finally {
      await worker.terminate();
    }
  });

  it('sends as many batches unasked as it is allowed in flight, then one per asking', async () => {
    const dir = await vocFolder('in-flight', FILES_PER_MESSAGE * 3 + 1, 1);
    const { worker, got, next, turns } = readingThread(dir, 2);
    /** Until `n` messages came (each batch is made as the one before it is sent: under load that
     * can take longer than the turns), then a while longer: nothing more may come unasked. */
    const received = async (n: number) => {
      while (got.length < n) await next();
      await turns();
      return got.map((m) => m.kind);
    };
    try {
      expect(await received(2)).toEqual(['files', 'files']);
      worker.postMessage('more');
      expect(await received(3)).toEqual(['files', 'files', 'files']);
      // The last batch, then the end: two in flight again, nothing asked.
      worker.postMessage('more');
      worker.postMessage('more');
      while (got.length < 5) await next();
      expect(got.map((m) => m.kind)).toEqual(['files', 'files', 'files', 'files', 'done']);
    } finally {
      await worker.terminate();
    }
  });
});
