import type { Db } from '../../node-lib/sqlite.js';
import { must } from './row-mappers.js';
import type { FolderRow, LibraryStore } from './store-types.js';

interface FolderDbRow {
  id: number;
  path: string;
  added_at: number;
  last_scan_at: number | null;
}

const toFolder = (r: FolderDbRow): FolderRow => ({
  id: r.id,
  path: r.path,
  addedAt: r.added_at,
  lastScanAt: r.last_scan_at,
});

type FoldersApi = LibraryStore['folders'];

export class FoldersRepo implements FoldersApi {
  private readonly insertStmt;
  private readonly byPathStmt;
  private readonly removeStmt;
  private readonly listStmt;
  private readonly scannedStmt;

  constructor(
    db: Db,
    private readonly now: () => number,
  ) {
    this.insertStmt = db.prepare<[string, number]>(
      'INSERT INTO folders (path, added_at) VALUES (?, ?) ON CONFLICT (path) DO NOTHING',
    );
    this.byPathStmt = db.prepare<[string], FolderDbRow>('SELECT * FROM folders WHERE path = ?');
    // Media and their submissions go with the folder; results stay, keyed by content, so
    // re-adding the folder later costs nothing.
    this.removeStmt = db.prepare<[number]>('DELETE FROM folders WHERE id = ?');
    this.listStmt = db.prepare<[], FolderDbRow>('SELECT * FROM folders ORDER BY path');
    this.scannedStmt = db.prepare<[number, number]>(
      'UPDATE folders SET last_scan_at = ? WHERE id = ?',
    );
  }

  /** Adding a folder twice returns the existing row. */
  add(path: string): FolderRow {
    this.insertStmt.run(path, this.now());
    return toFolder(must(this.byPathStmt.get(path), `folder ${path}`));
  }

  remove(id: number): void {
    this.removeStmt.run(id);
  }

  list(): FolderRow[] {
    return this.listStmt.all().map(toFolder);
  }

  markScanned(id: number, at: number): void {
    this.scannedStmt.run(at, id);
  }
}
