/**
 * Issue 23 through the app's runs: alt service i means x,y as each box's centre, and only its
 * second paid answer says so (a box that would lie outside the picture read as a corner). The
 * answers before it are read as corners and held, then read again when it decides; the answers
 * after it decide nothing alone, are held too, and are read again with the decided origin during
 * the same run, not at the next run's start: when the run ends, every box is where the service
 * meant, nothing was sent twice, and nothing is left held.
 */
import Database from 'better-sqlite3';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Application } from '../../../electron/application/application-types.js';
import { expectServedBoxesStored } from '../../support/alt-service/alt-library.js';
import { startAltService, type AltService } from '../../support/alt-service/alt-service.js';
import { jpeg } from '../../support/synth-media.js';
import { appHome } from '../../support/app-home.js';
import { appOnService, runToEnd } from '../../support/app-run.js';

const FILES = 6;

let app: Application | undefined;
let alt: AltService | undefined;
let remove: (() => Promise<void>) | undefined;
afterAll(async () => {
  await app?.close();
  await alt?.close();
  await remove?.();
});

function heldCount(home: string): number {
  const db = new Database(join(home, 'library.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const sql = 'SELECT count(*) AS n FROM raw_answers WHERE origin_pending = 1';
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe("an app run whose service's later answer decides the box origin", () => {
  it('reads every answer held in that run again with it before the run ends', async () => {
    const { home, dir, remove: removeHome } = await appHome('origin-decided-app-');
    remove = removeHome;
    for (let i = 0; i < FILES; i++)
      await writeFile(join(dir, `p${i}.jpg`), await jpeg(240 + 16 * i, 200, 20 + i));
    alt = await startAltService('i');
    const started = await appOnService(home, dir, alt, FILES);
    app = started.app;
    await runToEnd(app.handlers, started.folderId);

    expect(alt.paidCalls).toBe(FILES);
    expect(heldCount(home)).toBe(0);
    // Two boxes per file, and the deciding answer's third: all where the service meant them.
    expect(expectServedBoxesStored(home, alt)).toBe(2 * FILES + 1);
  }, 120_000);
});
