/**
 * YOLO class names: `data.yaml`'s `names` (a list, a flow list, or an id → name map, scalars plain,
 * single- or double-quoted) or else `classes.txt` (one per line). Only this corner of YAML is read:
 * it is all that Ultralytics and LabelDesk's own exports write there.
 */

/** Names by class id from a data.yaml text; undefined when it has no readable `names`. */
export function namesFromYaml(text: string): Map<number, string> | undefined {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => /^names\s*:/.test(l));
  if (at < 0) return undefined;
  const rest = (lines[at] as string).replace(/^names\s*:\s*/, '').trim();
  const names = new Map<number, string>();
  if (rest.startsWith('[')) {
    splitFlow(rest.slice(1, rest.lastIndexOf(']'))).forEach((s, i) => names.set(i, scalar(s)));
    return names;
  }
  if (rest.startsWith('{')) {
    for (const entry of splitFlow(rest.slice(1, rest.lastIndexOf('}')))) {
      const m = /^\s*(\d+)\s*:\s*(.*)$/.exec(entry);
      if (m) names.set(Number(m[1]), scalar(m[2] as string));
    }
    return names;
  }
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) break;
    const item = /^\s+-\s+(.*)$/.exec(line);
    const pair = /^\s+(\d+)\s*:\s*(.*)$/.exec(line);
    if (item) names.set(names.size, scalar(item[1] as string));
    else if (pair) names.set(Number(pair[1]), scalar(pair[2] as string));
  }
  return names;
}

export function namesFromClassesTxt(text: string): Map<number, string> {
  const names = new Map<number, string>();
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l, i, all) => l !== '' || i < all.length - 1)
    .forEach((l, i) => names.set(i, l));
  return names;
}

/** Splits a flow sequence on commas outside quotes. */
function splitFlow(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      cur += c;
      if (c === '\\' && quote === '"') cur += text[++i] ?? '';
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
      cur += c;
    } else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur.trim() !== '') out.push(cur);
  return out.map((s) => s.trim());
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '"': '"',
  '\\': '\\',
  '/': '/',
  '0': '\0',
};

/** One YAML scalar: double-quoted (with escapes), single-quoted ('' is a quote), or plain. */
export function scalar(raw: string): string {
  const s = raw.trim();
  if (s.startsWith('"')) {
    let out = '';
    for (let i = 1; i < s.length; i++) {
      const c = s[i] as string;
      if (c === '"') break;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = s[++i] ?? '';
      const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (hex) {
        out += String.fromCodePoint(parseInt(s.slice(i + 1, i + 1 + hex), 16));
        i += hex;
      } else out += ESCAPES[e] ?? e;
    }
    return out;
  }
  if (s.startsWith("'")) return s.slice(1, s.lastIndexOf("'")).replace(/''/g, "'");
  return s.replace(/\s+#.*$/, '');
}
