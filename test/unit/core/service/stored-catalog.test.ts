import { describe, expect, it } from 'vitest';
import { Problems } from '../../../../electron/core/service/adapter/notes.js';
import { readCatalog } from '../../../../electron/core/service/adapter/read-catalog.js';
import {
  latestStoredCatalog,
  parseStoredCatalog,
  StoredCatalogError,
} from '../../../../electron/core/service/adapter/stored-catalog.js';

/** A catalog as a service publishes it (the interface's names), read by the adapter. */
function adapterCatalog() {
  const problems = new Problems();
  const catalog = readCatalog(
    {
      version: '2026.11',
      boxOrigin: 'corner',
      solutions: [
        {
          id: 'objects',
          name: 'Objects',
          media: ['image', 'video'],
          classes: ['person', 'car'],
          frameCost: { image: 1, videoFrame: 1 },
        },
      ],
      limits: { maxImageBytes: 20_000_000, pollIntervalMs: { min: 500, max: 5000 } },
    },
    problems,
  );
  expect(problems.list).toEqual([]);
  return catalog!;
}

describe('stored catalog snapshots', () => {
  it('read back as the catalog that was stored', () => {
    const catalog = adapterCatalog();
    expect(parseStoredCatalog('http://svc', JSON.stringify(catalog))).toEqual(catalog);
  });

  it('give the fields added since a snapshot was stored the value meaning "not said"', () => {
    const { boxOrigin: _o, understanding: _u, sdk: _s, ...older } = adapterCatalog();
    const read = parseStoredCatalog('http://svc', JSON.stringify(older));
    expect(read).toMatchObject({ boxOrigin: null, understanding: [], sdk: [] });
    expect(read.solutions[0]?.classes).toEqual(['person', 'car']);
  });

  it('a damaged snapshot is an error with a code that names the service and the field', () => {
    const bad = { ...adapterCatalog(), solutions: [{ id: 'objects', classes: 'person' }] };
    const read = () => parseStoredCatalog('http://svc', JSON.stringify(bad));
    expect(read).toThrow(StoredCatalogError);
    expect(read).toThrow(/catalog stored for http:\/\/svc cannot be read \(solutions\.0\./);
    try {
      read();
    } catch (err) {
      expect((err as StoredCatalogError).code).toBe('catalog_snapshot_invalid');
    }
    expect(() => parseStoredCatalog('http://svc', '{not json')).toThrow(/\(not JSON\)/);
  });

  it('none stored is no catalog, not an error', () => {
    expect(latestStoredCatalog({ latest: () => undefined }, 'http://svc')).toBeUndefined();
  });
});
