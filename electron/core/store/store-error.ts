/** Errors the store raises on purpose: a stable code for callers, a sentence for people. */
export type StoreErrorCode =
  'illegal_transition' | 'not_found' | 'secret_in_settings' | 'store_closed';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const DAMAGED = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);

/** True when SQLite says the database file itself is damaged (anywhere in the cause chain). */
export function isDamagedDatabase(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (DAMAGED.has((e as { code?: string }).code ?? '')) return true;
  }
  return false;
}

/** The library database cannot be read: one sentence naming the file and what to do. */
export class LibraryDamagedError extends Error {
  override readonly name = 'LibraryDamagedError';
  constructor(
    readonly file: string,
    cause?: unknown,
  ) {
    super(
      `The library database ${file} is damaged (${cause instanceof Error ? cause.message : 'unreadable'}): move it aside (mv ${file} ${file}.damaged) and run again to start a new library from your folders; your media files are not touched.`,
      { cause },
    );
  }
}
