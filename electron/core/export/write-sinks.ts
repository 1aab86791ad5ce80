/**
 * Backpressure-aware output: a buffered text stream for the single-file formats and sliced
 * small-file writes for the folder formats. Neither ever holds more than a chunk or a
 * handful of files in memory, whatever the size of the export.
 */
import { once } from 'node:events';
import { createWriteStream, writeFileSync, type WriteStream } from 'node:fs';

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

/**
 * Writes many small files synchronously, yielding to the event loop every few milliseconds.
 * Measured here on 100k label files: the async fs API costs three thread-pool round trips per
 * file (open, write, close) and about twice the CPU and wall time of plain sync calls, which is
 * what the file system allows anyway; the slices keep IPC and progress responsive.
 */
export class SmallFiles {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = 8) {}

  /** 'wx': a file that already exists (or a planted symlink) is an error, never overwritten. */
  async add(path: string, data: string): Promise<void> {
    writeFileSync(path, data, { flag: 'wx' });
    if (performance.now() - this.sliceStart >= this.sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      this.sliceStart = performance.now();
    }
  }
}

/**
 * One file of a folder export whose size is not known in advance (a clip's MOT lines): held in
 * memory while small and written with one sync call like `SmallFiles`, switched to a `TextSink`
 * once it passes a chunk, so a clip of a million lines never sits in memory whole.
 */
export class GrowingFile {
  private parts: string[] = [];
  private size = 0;
  private sink: TextSink | undefined;

  constructor(
    private readonly path: string,
    private readonly small: SmallFiles,
  ) {}

  write(text: string): Promise<void> | undefined {
    if (this.sink) return this.sink.write(text);
    this.parts.push(text);
    this.size += text.length;
    if (this.size < CHUNK_CHARS) return undefined;
    this.sink = TextSink.create(this.path, this.parts.join(''));
    this.parts = [];
    return undefined;
  }

  async close(): Promise<void> {
    if (this.sink) await this.sink.close();
    else await this.small.add(this.path, this.parts.join(''));
  }

  async destroy(): Promise<void> {
    await this.sink?.destroy();
  }
}
