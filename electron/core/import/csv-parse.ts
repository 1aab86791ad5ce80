/** RFC 4180 rows (quoted fields may hold commas, quotes and line breaks; CRLF or LF). */

export interface CsvRecord {
  /** 1-based line where the record starts, for messages. */
  line: number;
  fields: string[];
}

/** Throws on an unterminated quote (the rest of the file could not be split into rows). */
export function* csvRecords(text: string): Generator<CsvRecord> {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const start = line;
    const fields: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q < 0) throw new SyntaxError(`a quoted field opened on line ${start} never closes`);
          field += text.slice(i, q);
          line += countBreaks(text, i, q);
          i = q + 1;
          if (text[i] === '"') {
            field += '"';
            i++;
          } else break;
        }
        // Anything between the closing quote and the separator is kept as written.
        const end = nextSeparator(text, i);
        field += text.slice(i, end);
        i = end;
      } else {
        const end = nextSeparator(text, i);
        field = text.slice(i, end);
        i = end;
      }
      fields.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    line++;
    if (!(fields.length === 1 && fields[0] === '')) yield { line: start, fields };
  }
}

function nextSeparator(text: string, from: number): number {
  for (let j = from; j < text.length; j++) {
    const c = text[j];
    if (c === ',' || c === '\n' || c === '\r') return j;
  }
  return text.length;
}

function countBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let j = from; j < to; j++) if (text[j] === '\n') count++;
  return count;
}
