/**
 * Just enough XML for Pascal VOC annotations: the text of named child elements, entities decoded.
 * VOC files are small, flat and machine-written; a full parser would add a dependency for nothing.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXmlText(text: string): string {
  const plain = text.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_m, cdata: string) =>
    cdata.replace(/&/g, '&amp;').replace(/</g, '&lt;'),
  );
  return plain.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code =
        e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e] ?? m;
  });
}

/** The inner text of each `<tag>…</tag>` directly in `xml` (not nested in another of the same tag). */
export function elements(xml: string, tag: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}\\s*>`, 'g');
  for (let m = re.exec(xml); m; m = re.exec(xml)) out.push(m[1] ?? '');
  return out;
}

/** The decoded, trimmed text of the first `<tag>`; undefined when absent. */
export function field(xml: string, tag: string): string | undefined {
  const inner = elements(xml, tag)[0];
  return inner === undefined ? undefined : decodeXmlText(inner).trim();
}

/** Removes every `<tag>…</tag>` block (VOC person parts carry their own name and bndbox). */
export function without(xml: string, tag: string): string {
  return xml.replace(new RegExp(`<${tag}(?:\\s[^>]*)?>[\\s\\S]*?</${tag}\\s*>`, 'g'), '');
}
