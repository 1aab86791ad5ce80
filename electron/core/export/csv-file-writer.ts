/** The frame of the one-file CSV formats: a header, rows streamed through a TextSink, no folder. */
import type { MediaKind } from '../store/store-types.js';
import type { FormatWriter, PreparedItem } from './export-model.js';
import { csvRow } from './text-escape.js';
import { TextSink } from './write-sinks.js';

export abstract class CsvFileWriter implements FormatWriter {
  protected readonly sink: TextSink;

  constructor(file: string, header: readonly string[]) {
    this.sink = TextSink.create(file, csvRow(header));
  }

  abstract accepts(kind: MediaKind): boolean;
  abstract add(item: PreparedItem): Promise<number>;

  async finish(): Promise<string[]> {
    await this.sink.close();
    return [];
  }

  async abort(): Promise<void> {
    await this.sink.destroy();
  }
}
