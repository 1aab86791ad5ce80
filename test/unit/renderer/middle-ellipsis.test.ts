import { describe, expect, it } from 'vitest';
import { middleEllipsis } from '../../../renderer/src/features/folders/middle-ellipsis.js';

describe('middle ellipsis', () => {
  it('leaves paths that fit alone', () => {
    expect(middleEllipsis('/home/ann/photos', 40)).toBe('/home/ann/photos');
  });

  it('cuts the middle, keeps the start and more of the end, and meets the length', () => {
    const path = '/mnt/nas-share/projects/2026/site-a/drone-flights/morning/raw-frames';
    const short = middleEllipsis(path, 30);
    expect([...short]).toHaveLength(30);
    expect(short).toContain('…');
    expect(path.startsWith(short.split('…')[0]!)).toBe(true);
    expect(path.endsWith(short.split('…')[1]!)).toBe(true);
    expect(short.split('…')[1]!.length).toBeGreaterThan(short.split('…')[0]!.length);
    expect(short.endsWith('raw-frames')).toBe(true);
  });

  it('counts characters, not UTF-16 units, so it never splits an emoji', () => {
    const path = `/photos/${'📷'.repeat(30)}/end`;
    const short = middleEllipsis(path, 12);
    expect([...short]).toHaveLength(12);
    expect(short).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('degrades to the ellipsis alone at tiny widths', () => {
    expect(middleEllipsis('/a/long/path', 1)).toBe('…');
  });
});
