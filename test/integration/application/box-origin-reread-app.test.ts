/**
 * Issue 23 through the application layer, as the app meets it: a run against alt service h (x,y
 * is each box's centre, and nothing in its answers can decide it) stores the boxes read as
 * corners; when the person confirms the centre on the Service screen (`service.setReading`), the
 * answers are read again, with no call to the service, and every box is where the service meant.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Application } from '../../../electron/application/application-types.js';
import { expectServedBoxesStored } from '../../support/alt-service/alt-library.js';
import { startAltService, type AltService } from '../../support/alt-service/alt-service.js';
import { jpeg } from '../../support/synth-media.js';
import { appHome } from '../../support/app-home.js';
import { appOnService, runToEnd } from '../../support/app-run.js';

let app: Application | undefined;
let alt: AltService | undefined;
let remove: (() => Promise<void>) | undefined;
afterAll(async () => {
  await app?.close();
  await alt?.close();
  await remove?.();
});

describe('confirming the box origin on the Service screen', () => {
  it('reads the boxes stored while it was undecided again with it', async () => {
    const { home, dir, remove: removeHome } = await appHome('origin-reread-app-');
    remove = removeHome;
    await writeFile(join(dir, 'a.jpg'), await jpeg(320, 240, 5));
    await writeFile(join(dir, 'b.jpg'), await jpeg(200, 300, 6));
    alt = await startAltService('h');
    const started = await appOnService(home, dir, alt, 2);
    app = started.app;
    const h = app.handlers;
    await runToEnd(h, started.folderId);
    // Read as corners while nobody had said: every box lies half its size right and down.
    expect(() => expectServedBoxesStored(home, alt!)).toThrow();
    const paid = alt.paidCalls;

    await h['service.setReading']({ boxOrigin: 'centre' });
    expect(expectServedBoxesStored(home, alt)).toBe(4);
    expect(alt.paidCalls).toBe(paid);
  }, 120_000);
});
