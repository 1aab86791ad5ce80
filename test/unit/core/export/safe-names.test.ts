import { describe, expect, it } from 'vitest';
import {
  insideDir,
  NameAllocator,
  sanitiseStem,
} from '../../../../electron/core/export/safe-names.js';
import {
  csvField,
  csvText,
  xmlText,
  yamlQuoted,
} from '../../../../electron/core/export/text-escape.js';

describe('safe names', () => {
  it('sanitises separators, dots, controls and device names', () => {
    expect(sanitiseStem('..')).toBe('_');
    expect(sanitiseStem('.hidden')).toBe('_hidden');
    expect(sanitiseStem('a/b\\c:d')).toBe('a_b_c_d');
    expect(sanitiseStem('x\u0000y')).toBe('x_y');
    expect(sanitiseStem('CON')).toBe('_CON');
    expect(sanitiseStem('com1.tar')).toBe('_com1.tar');
    expect(sanitiseStem('end. ')).toBe('end');
    expect(sanitiseStem('')).toBe('_');
    expect(sanitiseStem('Straße, "x"')).toBe('Straße, _x_');
    // NFD (as macOS stores it) and NFC give the same name.
    expect(sanitiseStem('e\u0301')).toBe('\u00e9');
  });

  it('resolves equal base names by a stable hash of the full path', () => {
    const a = new NameAllocator();
    const b = new NameAllocator();
    const paths = ['/x/photo.jpg', '/y/photo.jpg', '/z/Photo.png', '/w/photo.txt'];
    const namesA = paths.map((p) => a.allocate(p, '.txt'));
    const namesB = paths.map((p) => b.allocate(p, '.txt'));
    expect(namesA).toEqual(namesB);
    expect(namesA[0]).toBe('photo.txt');
    expect(new Set(namesA.map((n) => n.toLowerCase())).size).toBe(4);
    expect(new NameAllocator(['sources.csv']).allocate('/m/sources.mp4', '.csv')).toMatch(
      /^sources-[0-9a-f]{8}\.csv$/,
    );
  });

  it('refuses to join a name that leaves the folder', () => {
    expect(() => insideDir('/out', '../x')).toThrow(/outside/);
    expect(() => insideDir('/out', '/etc/x')).toThrow(/outside/);
    expect(insideDir('/out', 'a.txt')).toBe('/out/a.txt');
  });
});

describe('text escaping', () => {
  it('CSV quotes only what needs quoting', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(1.5)).toBe('1.5');
  });

  it('CSV never hands a spreadsheet a formula, and the reader takes the guard back off', () => {
    const hostile = ['=HYPERLINK("http://x","y")', '+1', '-2+3', '@SUM(A1)', '\tx', '\rx', "'=a"];
    const written = hostile.map(csvField);
    expect(written).toEqual([
      `"'=HYPERLINK(""http://x"",""y"")"`,
      "'+1",
      "'-2+3",
      "'@SUM(A1)",
      "'\tx",
      `"'\rx"`,
      "''=a",
    ]);
    const cells = hostile.map((h) => `'${h}`);
    expect(cells.map(csvText)).toEqual(hostile);
    expect([csvField(-1), csvText("it's"), csvText("'plain")]).toEqual(['-1', "it's", "'plain"]);
  });

  it('XML escapes markup and replaces what XML 1.0 cannot carry', () => {
    expect(xmlText(`<a href="x">&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;');
    expect(xmlText('a\u0000b\u0001')).toBe('a\ufffdb\ufffd');
    expect(xmlText('\ud800x')).toBe('\ufffdx');
    expect(xmlText('😀')).toBe('😀');
  });

  it('YAML double quotes round-trip through a JSON-compatible reading', () => {
    for (const s of ['plain', 'a: b', 'say "hi"', 'back\\slash', 'two\nlines', '- dash', '日本']) {
      expect(JSON.parse(yamlQuoted(s))).toBe(s);
    }
    expect(yamlQuoted('\u0001')).toBe('"\\x01"');
  });
});
