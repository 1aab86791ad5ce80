/**
 * The team outbox's triggers (on corrections and reviewed marks) exist only while the library is
 * in a project: their WHEN already did nothing outside one, but SQLite still runs a trigger
 * program per row to find that out (about 0.8 µs a row, a second of a 100k-image import's
 * million inserts). Migration 23 keeps their SQL, as the migrations left it, in `team_triggers`;
 * joining installs them in the transaction that links the project, before anything is published,
 * and leaving drops them in the one that unlinks it. A later migration that changes them updates
 * that table, and the triggers themselves only where they are installed. A schema baseline made
 * after migration 23 must carry the table's rows too (team-triggers.test.ts joins a new library).
 */
import type { Db } from '../../node-lib/sqlite.js';

export interface TeamTriggers {
  /** Creates the triggers not installed yet; call inside the transaction that joins a project. */
  install(): void;
  /** Drops the installed triggers; call inside the transaction that leaves a project. */
  remove(): void;
  /** Installs or removes them as the project link says (an open after migration 23). */
  sync(): void;
}

export function teamTriggers(db: Db): TeamTriggers {
  const kept = db.prepare<[], { name: string; sql: string; installed: number }>(
    `SELECT t.name, t.sql, EXISTS (SELECT 1 FROM sqlite_master m
       WHERE m.type = 'trigger' AND m.name = t.name) AS installed
     FROM team_triggers t ORDER BY t.name`,
  );
  const linked = db.prepare('SELECT count(*) FROM team_project').pluck();
  const install = () => {
    for (const t of kept.all()) if (!t.installed) db.exec(t.sql);
  };
  const remove = () => {
    for (const t of kept.all()) if (t.installed) db.exec(`DROP TRIGGER "${t.name}"`);
  };
  return {
    install,
    remove,
    sync() {
      const want = (linked.get() as number) > 0;
      if (kept.all().some((t) => Boolean(t.installed) !== want))
        db.transaction(want ? install : remove).immediate();
    },
  };
}
