/**
 * Issue 25: the Runs screen's estimate in a team project asks the hub, as `labeldesk plan` does:
 * a file whose answer the team already holds (this solution and service) is counted apart as
 * the team's (free), not as to pay; with the hub away the estimate counts it as to pay and says why.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Application } from '../../../electron/application/application-types.js';
import { createApplication } from '../../../electron/application/create-application.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { HubClient } from '../../../electron/core/team/hub-client.js';
import {
  startMisbehavingService,
  type MisbehavingService,
} from '../../support/misbehaving-service.js';
import { startPgServer, type PgServer } from '../../support/pg-server.js';
import { jpeg } from '../../support/synth-media.js';
import { appHome, untilScanned } from '../../support/app-home.js';

let app: Application | undefined;
let service: MisbehavingService | undefined;
let pg: PgServer | undefined;
let remove: (() => Promise<void>) | undefined;
afterEach(async () => {
  await app?.close();
  await service?.close();
  await pg?.remove();
  await remove?.();
  app = service = pg = remove = undefined;
});

const FILES = 3;

describe("the Runs screen's estimate in a team project", () => {
  it('counts files the team answered as free, and as to pay with the hub away', async () => {
    const { home, dir, remove: removeHome } = await appHome('team-estimate-');
    remove = removeHome;
    for (let i = 0; i < FILES; i++)
      await writeFile(join(dir, `p${i}.jpg`), await jpeg(64 + 8 * i, 48, i));
    pg = await startPgServer();
    const password = pg.createRole('lead', { createSchema: true });
    service = await startMisbehavingService('none');
    app = await createApplication({
      transport: 'in-process',
      mediaBase: 'test://',
      env: { ...process.env, LABELDESK_HOME: home, LABELDESK_EMBEDDED_ENGINE: 'null' },
    });
    const h = app.handlers;
    await h['service.useHosted']({ baseUrl: service.url, apiKey: service.key });
    const folder = await h['folders.add']({ path: dir });
    await untilScanned(h, FILES);
    const scope = { solution: 'objects', folderIds: [folder.id] };
    const alone = await h['runs.estimate'](scope);
    expect(alone.images).toBe(FILES);
    expect(alone.teamHas).toBeUndefined();

    await h['team.link']({
      create: true,
      hub: pg.url('lead', password),
      project: 'demo',
      folder: dir,
    });
    // Another member paid for p0's answer: the hub holds it, under the service the app uses.
    const store = openLibraryStore(join(home, 'library.sqlite'));
    const hash = store.media.byPath(join(dir, 'p0.jpg'))!.contentHash!;
    store.close();
    const hub = new HubClient({
      address: pg.url('lead', '').replace(':@', '@'),
      password,
      project: 'demo',
    });
    await hub.addAnswers([
      {
        contentHash: hash,
        solution: 'objects',
        service: service.url,
        answer: { detections: [] } as never,
      },
    ]);
    await hub.close();
    const inTeam = await h['runs.estimate'](scope);
    expect(inTeam).toMatchObject({ images: FILES - 1, teamHas: 1, teamAway: null });
    expect(inTeam.frames).toBe(alone.frames - (alone.imageCost ?? 0));

    await pg.remove();
    pg = undefined;
    const away = await h['runs.estimate'](scope);
    expect(away).toMatchObject({ images: FILES, teamHas: 0 });
    expect(away.teamAway).toMatch(/\w/);
  }, 180_000);
});
