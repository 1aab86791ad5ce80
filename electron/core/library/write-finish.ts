/**
 * Write-finish detection for the watcher: a file counts as written once its size and mtime are
 * equal across two lstats `waitMs` apart, however long the writer keeps going.
 */
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { FileStamp } from './watch-directory.js';

interface Pending extends FileStamp {
  timer: NodeJS.Timeout;
}

export class WriteFinish {
  private readonly pending = new Map<string, Pending>();

  has(file: string): boolean {
    return this.pending.has(file);
  }

  /**
   * Calls `done` once with the final lstat, or with undefined when the file is gone or is no
   * longer a file. `first` is a stat already made (saves one window when nothing changes).
   * A file already being watched is left to the running check, which will see this change too.
   */
  watch(
    file: string,
    waitMs: number,
    done: (st: Stats | undefined) => void,
    first?: FileStamp,
  ): void {
    if (this.pending.has(file)) return;
    const entry: Pending = {
      timer: setTimeout(() => void tick(), waitMs),
      size: first?.size ?? -1,
      mtimeMs: first?.mtimeMs ?? -1,
    };
    this.pending.set(file, entry);
    const tick = async () => {
      const st = await lstat(file).catch(() => undefined);
      if (this.pending.get(file) !== entry) return; // cancelled meanwhile
      if (st?.isFile() && (st.size !== entry.size || st.mtimeMs !== entry.mtimeMs)) {
        entry.size = st.size;
        entry.mtimeMs = st.mtimeMs;
        entry.timer = setTimeout(() => void tick(), waitMs);
        return;
      }
      this.pending.delete(file);
      done(st?.isFile() ? st : undefined);
    };
  }

  /** Forgets every check under `dir` (the folder is gone). */
  cancelUnder(dir: string): void {
    for (const [file, p] of this.pending) {
      if (file.startsWith(dir + path.sep)) {
        clearTimeout(p.timer);
        this.pending.delete(file);
      }
    }
  }

  clear(): void {
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }
}
