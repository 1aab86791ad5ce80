/** A library store in its own temp folder, with a pinned clock and sample rows. */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openLibraryStore } from '../../../../electron/core/review/open-library-store.js';
import { LIBRARY_MIGRATIONS } from '../../../../electron/core/store/migrations.js';
import { migrate, openDatabase, type Db } from '../../../../electron/node-lib/sqlite.js';
import type {
  BoxXYWH,
  CorrectionInput,
  DetectionInput,
  LibraryStore,
  MediaUpsert,
  ResultInput,
} from '../../../../electron/core/store/store-types.js';
import { tempDir } from '../../../support/temp-dir.js';

export interface StoreFixture {
  store: LibraryStore;
  file: string;
  dir: string;
  clock: { t: number };
  reopen(): LibraryStore;
  done(): Promise<void>;
}

export async function storeFixture(): Promise<StoreFixture> {
  const tmp = await tempDir('labeldesk-store-');
  const file = join(tmp.dir, 'library.sqlite');
  const clock = { t: 1_700_000_000_000 };
  const open = () => openLibraryStore(file, { now: () => clock.t });
  const fx: StoreFixture = {
    store: open(),
    file,
    dir: tmp.dir,
    clock,
    reopen() {
      fx.store.close();
      fx.store = open();
      return fx.store;
    },
    async done() {
      fx.store.close();
      await tmp.remove();
    },
  };
  return fx;
}

/**
 * The fixture's library made anew as an older LabelDesk left it, at migration `version`, with its
 * store closed: the caller adds rows, closes the database, then opens the store again (the open
 * runs the later migrations).
 */
export function libraryAtMigration(fx: StoreFixture, version: number): Db {
  fx.store.close();
  rmSync(fx.file, { force: true });
  const db = openDatabase(fx.file);
  migrate(
    db,
    LIBRARY_MIGRATIONS.filter((m) => m.version <= version),
  );
  return db;
}

export function mediaRow(
  folderId: number,
  path: string,
  over: Partial<MediaUpsert> = {},
): MediaUpsert {
  return {
    folderId,
    path,
    kind: 'image',
    size: 1000,
    mtimeMs: 1_690_000_000_000.5,
    contentHash: null,
    width: 640,
    height: 480,
    orientation: 1,
    durationMs: null,
    fps: null,
    ...over,
  };
}

export function box(
  label: string,
  score: number,
  over: Partial<DetectionInput> = {},
): DetectionInput {
  return {
    frameIndex: 0,
    timeMs: null,
    label,
    classId: label === 'person' ? 0 : 1,
    score,
    bbox: { x: 0.1, y: 0.2, w: 0.3, h: 0.4 },
    ...over,
  };
}

export function result(
  contentHash: string,
  detections: DetectionInput[],
  over: Partial<ResultInput> = {},
): ResultInput {
  return {
    contentHash,
    solution: 'objects',
    serviceUrl: 'http://127.0.0.1:4100',
    analysedWidth: 640,
    analysedHeight: 480,
    model: 'centernet',
    detections,
    ...over,
  };
}

/** A correction the way the review screen stores one (anchor: the model box as it was; null for
 *  a drawn box): nothing changed unless `over` says so. */
export function correction(
  contentHash: string,
  anchor: { label: string; score: number | null; bbox: BoxXYWH } | null,
  over: Partial<CorrectionInput> = {},
): CorrectionInput {
  return {
    contentHash,
    solution: 'objects',
    frameIndex: 0,
    timeMs: null,
    anchor,
    label: null,
    bbox: null,
    review: 'pending',
    deleted: false,
    ...over,
  };
}
