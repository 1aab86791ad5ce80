/**
 * "Check service" through the application layer (what the Service screen calls), on the embedded
 * service with the real models: a check spends nothing; a file sent is analysed under the
 * library's lock (refused while another run holds it), costs what the catalog says, and comes
 * back with its boxes and a preview to draw them on; the corner/centre setting is kept.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Application } from '../../../electron/application/application-types.js';
import { createApplication } from '../../../electron/application/create-application.js';
import { acquireLibraryLock } from '../../../electron/core/store/library-lock.js';
import { realMediaDir } from '../../support/real-media.js';
import { tempDir } from '../../support/temp-dir.js';

let app: Application;
let home: string;
let remove: () => Promise<void>;
let photo: string;

beforeAll(async () => {
  photo = join(await realMediaDir(), 'messi5.jpg');
  const tmp = await tempDir();
  remove = tmp.remove;
  home = join(tmp.dir, 'home');
  app = await createApplication({
    transport: 'in-process',
    mediaBase: 'test://',
    env: { ...process.env, LABELDESK_HOME: home },
  });
  for (let i = 0; i < 600; i++) {
    if ((await app.handlers['service.state']({})).status === 'online') break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);

afterAll(async () => {
  await app?.close();
  await remove?.();
});

const remaining = async () => (await app.handlers['service.refresh']({})).credits?.remaining;

describe('Check service in the app', () => {
  it('reads every part and spends nothing', async () => {
    const before = await remaining();
    const report = await app.handlers['service.check']({});
    expect(report.ok).toBe(true);
    expect(report.parts.filter((p) => p.verdict !== 'understood')).toEqual([]);
    expect(report.parts.map((p) => p.part)).toEqual(
      expect.arrayContaining(['catalog', 'health', 'key', 'solutions[objects].frameCost']),
    );
    expect(report.spend).toBeNull();
    expect(report.keptAnswers).toBe(0);
    expect(await remaining()).toBe(before);
  });

  it('refuses to send a file while another run holds the library', async () => {
    const lock = await acquireLibraryLock(home, { command: 'another run' });
    try {
      await expect(app.handlers['service.check']({ spendFile: photo })).rejects.toMatchObject({
        code: 'library_busy',
      });
    } finally {
      lock.release();
    }
  });

  it('sends one file through the real models: its cost, its boxes, a preview; the lock is let go', async () => {
    const before = (await remaining()) as number;
    const report = await app.handlers['service.check']({ spendFile: photo });
    expect(report.ok).toBe(true);
    expect(report.spend).toMatchObject({ kind: 'image', solution: 'objects', spent: 4 });
    expect(report.spend!.cost).toBe('as published (4 frames per image)');
    expect(report.spend!.boxes.map((b) => b.label)).toContain('person');
    for (const b of report.spend!.boxes) {
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.w).toBeLessThanOrEqual(1.0001);
    }
    expect(report.spend!.preview).toMatch(/^data:image\/jpeg;base64,/);
    expect(await remaining()).toBe(before - 4);
    (await acquireLibraryLock(home, { command: 'next run' })).release();
  }, 120_000);

  it('keeps the corner/centre setting for the service', async () => {
    expect(await app.handlers['service.reading']({})).toEqual({ boxOrigin: 'corner' });
    await app.handlers['service.setReading']({ boxOrigin: 'centre' });
    expect(await app.handlers['service.reading']({})).toEqual({ boxOrigin: 'centre' });
    const report = await app.handlers['service.check']({ spendFile: photo });
    expect(report.spend!.boxOrigin).toBe('centre');
  }, 120_000);
});
