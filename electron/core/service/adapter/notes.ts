/** The notes of one answer: "understood as …" and "not published: using …", each said once. */
import type { AdapterNote } from './adapter-types.js';

export class Notes {
  private readonly seen = new Set<string>();
  readonly list: AdapterNote[] = [];

  understoodAs(field: string, text: string): void {
    this.add({ field, kind: 'understood-as', text: `understood as ${text}` });
  }

  notPublished(field: string, using: string): void {
    this.add({
      field,
      kind: 'not-published',
      text: `not published by the service: using ${using}`,
    });
  }

  private add(note: AdapterNote): void {
    const key = `${note.field}\u0000${note.text}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push(note);
  }
}

/**
 * Problems that make an answer unreadable, one line each starting with its field path. The
 * caller turns them into a ServiceShapeError (catalog, key) or keeps a paid answer raw.
 */
export class Problems {
  readonly list: string[] = [];

  add(field: string, text: string): void {
    this.list.push(`${field}: ${text}`);
  }

  get any(): boolean {
    return this.list.length > 0;
  }
}
