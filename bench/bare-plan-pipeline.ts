/**
 * The bare pipeline a cold `labeldesk plan` is measured against, as a process of its own: walk
 * the tree (readdir), stat each file, read it whole, SHA-256 it, and store path, size, mtime and
 * hash in SQLite in one transaction. Plain synchronous calls on one thread, no checks.
 * `node build/bench/bare-plan-pipeline.js TREE DB` prints the number of files stored.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

export function barePlanPipeline(tree: string, dbPath: string): number {
  const rows: [string, number, number, string][] = [];
  const stack = [tree];
  while (stack.length) {
    const dir = stack.pop() as string;
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, d.name);
      if (d.isDirectory()) stack.push(p);
      else if (d.name.endsWith('.jpg')) {
        const st = statSync(p);
        const hash = createHash('sha256').update(readFileSync(p)).digest('hex');
        rows.push([p, st.size, st.mtimeMs, hash]);
      }
    }
  }
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE media (path TEXT PRIMARY KEY, size INTEGER, mtime REAL, hash TEXT)');
  const insert = db.prepare('INSERT INTO media VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const r of rows) insert.run(...r);
  })();
  db.close();
  return rows.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [tree, db] = process.argv.slice(2);
  if (!tree || !db) throw new Error('usage: bare-plan-pipeline TREE DB');
  process.stdout.write(`${barePlanPipeline(tree, db)}\n`);
}
