/**
 * Backpressure-aware output: a buffered text stream for the single-file formats and a bounded
 * pool of small-file writes for the folder formats. Neither ever holds more than a chunk or a
 * handful of files in memory, whatever the size of the export.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';

// Big enough that a million short lines cost a few hundred syscalls, small enough to not matter.
const CHUNK_CHARS = 64 * 1024;

export class TextSink {
  private parts: string[] = [];
  private size = 0;
  private failure: Error | null = null;

  private constructor(private readonly stream: WriteStream) {
    // Recorded here and rethrown on the next call, so an error between writes is never lost.
    stream.on('error', (e) => (this.failure ??= e));
  }

  /** Opens a new file; 'wx' refuses to follow or clobber anything already at that path. */
  static create(path: string, initial = ''): TextSink {
    const sink = new TextSink(createWriteStream(path, { flags: 'wx', encoding: 'utf8' }));
    sink.parts.push(initial);
    sink.size = initial.length;
    return sink;
  }

  /** Buffers text; resolves at once unless a chunk had to wait for the disk. */
  write(text: string): Promise<void> | undefined {
    if (this.failure) throw this.failure;
    this.parts.push(text);
    this.size += text.length;
    return this.size >= CHUNK_CHARS ? this.flush() : undefined;
  }

  /** Writes bytes as they are (e.g. a temp file being appended), after what is buffered. */
  async writeBytes(bytes: Buffer): Promise<void> {
    await this.flush();
    await this.push(bytes);
  }

  async close(): Promise<void> {
    await this.flush();
    this.stream.end();
    await once(this.stream, 'close');
    if (this.failure) throw this.failure;
  }

  /** Stops writing after a failure; the caller removes the file. */
  async destroy(): Promise<void> {
    if (this.stream.closed) return;
    const closed = once(this.stream, 'close').catch(() => undefined);
    this.stream.destroy();
    await closed;
  }

  private async flush(): Promise<void> {
    if (this.size === 0) return;
    const chunk = this.parts.join('');
    this.parts = [];
    this.size = 0;
    await this.push(chunk);
  }

  private async push(chunk: string | Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }
}

/** Writes many small files with at most `limit` in flight, so the disk sets the pace. */
export class FilePool {
  private readonly pending = new Set<Promise<void>>();
  private failure: unknown = null;

  constructor(private readonly limit = 16) {}

  async add(path: string, data: string): Promise<void> {
    if (this.failure) throw this.failure;
    const p: Promise<void> = writeFile(path, data, { flag: 'wx' })
      .catch((e: unknown) => {
        this.failure ??= e;
      })
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
    if (this.pending.size >= this.limit) await Promise.race(this.pending);
  }

  async drain(): Promise<void> {
    await Promise.all(this.pending);
    if (this.failure) throw this.failure;
  }
}
