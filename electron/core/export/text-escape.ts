/** Escaping for the text formats: each one breaks differently on commas, quotes and newlines. */

/**
 * Text a spreadsheet would run as a formula (OWASP's CSV injection rule: a cell starting with
 * `=`, `+`, `-`, `@`, tab or CR), and text starting with the apostrophe that neutralises one, so
 * that the reader (csvText in core/import) can take exactly one apostrophe back off.
 */
const FORMULA_START = /^[=+\-@\t\r']/;

/**
 * RFC 4180: quote a field holding a comma, quote, CR or LF (or edge spaces some readers trim).
 * Text that a spreadsheet would run as a formula gets a leading apostrophe; numbers are written
 * as they are.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const s = typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : String(value);
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRow(values: readonly (string | number | null)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

// XML 1.0 cannot carry these at all, escaped or not: C0 controls except tab/LF/CR, lone
// surrogates, U+FFFE/U+FFFF. They are replaced so the document stays well-formed.
const XML_INVALID =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function xmlText(value: string): string {
  return value
    .replace(XML_INVALID, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\r/g, '&#13;');
}

/** A YAML double-quoted scalar: the one style in which any string round-trips. */
export function yamlQuoted(value: string): string {
  let out = '"';
  for (const ch of value) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) out += `\\x${c.toString(16).padStart(2, '0')}`;
    // A BOM inside a scalar is invisible and stripped by some readers; lone surrogates are not text.
    else if (c === 0xfeff) out += '\\ufeff';
    else if (c >= 0xd800 && c <= 0xdfff) out += '\\ufffd';
    else out += ch;
  }
  return `${out}"`;
}

/** A CSV cell as csvField wrote it: one neutralising apostrophe taken off. */
export function csvText(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}
