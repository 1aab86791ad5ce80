import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  box,
  correction,
  mediaRow,
  result,
  storeFixture,
  type StoreFixture,
} from './store-fixture.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await storeFixture();
});
afterEach(() => fx.done());

describe('results.findMany and submissions.latestForMany (a plan reads a batch at once)', () => {
  it('answer for each content exactly what find and latestFor answer one by one', () => {
    const { store } = fx;
    const f = store.folders.add('/photos');
    const [mediaId] = store.media.upsertMany([mediaRow(f.id, '/photos/a.jpg')]);
    const runId = store.runs.create({
      serviceUrl: 'http://svc',
      solution: 'objects',
      estimateFrames: 4,
      budgetFrames: null,
      at: fx.clock.t,
    });
    store.results.save(result('h1', [box('person', 0.9)]));
    store.results.save(result('h2', [], { solution: 'faces' }));
    const submit = (contentHash: string, solution = 'objects') =>
      store.submissions.create({
        runId,
        mediaId: mediaId!,
        contentHash,
        solution,
        framesReserved: 1,
      });
    submit('h1');
    const later = submit('h1');
    store.submissions.setState(later, 'sending', { attempts: 1 });
    submit('h3');
    submit('h3', 'faces');

    const hashes = ['h1', 'h2', 'h3', 'h4'];
    const results = store.results.findMany?.(hashes, 'objects');
    const latest = store.submissions.latestForMany?.(hashes, 'objects');
    for (const h of hashes) {
      expect(results?.get(h)).toEqual(store.results.find(h, 'objects'));
      expect(latest?.get(h)).toEqual(store.submissions.latestFor(h, 'objects'));
    }
    expect([...(results?.keys() ?? [])]).toEqual(['h1']);
    expect([...(latest?.keys() ?? [])].sort()).toEqual(['h1', 'h3']);
    expect(latest?.get('h1')).toMatchObject({ id: later, state: 'sending' });
  });

  it('find nothing in a library where nothing was labelled or sent yet, then what is saved', () => {
    const { store } = fx;
    const f = store.folders.add('/photos');
    const [mediaId] = store.media.upsertMany([mediaRow(f.id, '/photos/a.jpg')]);
    expect(store.results.findMany?.(['h1'], 'objects').size).toBe(0);
    expect(store.submissions.latestForMany?.(['h1'], 'objects').size).toBe(0);
    store.results.save(result('h1', [box('person', 0.9)]));
    const runId = store.runs.create({
      serviceUrl: 'http://svc',
      solution: 'objects',
      estimateFrames: 1,
      budgetFrames: null,
      at: fx.clock.t,
    });
    store.submissions.create({
      runId,
      mediaId: mediaId!,
      contentHash: 'h1',
      solution: 'objects',
      framesReserved: 1,
    });
    expect(store.results.findMany?.(['h1'], 'objects').get('h1')).toEqual(
      store.results.find('h1', 'objects'),
    );
    expect(store.submissions.latestForMany?.(['h1'], 'objects').get('h1')).toEqual(
      store.submissions.latestFor('h1', 'objects'),
    );
  });
});

describe('results.ofSolution (an import reads every result of its solution)', () => {
  it("gives the solution's results in id order, a page at a time, as find gives each", () => {
    const { store } = fx;
    for (const h of ['h1', 'h2', 'h3', 'h4', 'h5']) store.results.save(result(h, []));
    store.results.save(result('h2', [], { solution: 'faces' }));
    // A later save of h1 keeps its id, and so its place.
    store.results.save(result('h1', [box('person', 0.9)]));

    const first = store.results.ofSolution('objects', 0, 3);
    const rest = store.results.ofSolution('objects', first.at(-1)?.id ?? 0, 3);
    const all = [...first, ...rest];
    expect(all.map((r) => r.contentHash)).toEqual(['h1', 'h2', 'h3', 'h4', 'h5']);
    for (const r of all) expect(r).toEqual(store.results.find(r.contentHash, 'objects'));
    expect(rest).toHaveLength(2);
    expect(store.results.ofSolution('faces', 0, 10).map((r) => r.contentHash)).toEqual(['h2']);
    expect(store.results.ofSolution('none', 0, 10)).toEqual([]);
  });
});

describe('corrections.contentsAmong (an import reads them with the library)', () => {
  it('numbers each listed content that has one, and a bulk write given it keys its rows so', () => {
    const { store } = fx;
    const f = store.folders.add('/photos');
    store.media.upsertMany([
      mediaRow(f.id, '/photos/a.jpg', { contentHash: 'ha' }),
      mediaRow(f.id, '/photos/b.jpg', { contentHash: 'hb' }),
    ]);
    // A content only a correction knows is numbered by its first write.
    store.corrections.put(correction('hc', null, { bbox: { x: 1, y: 1, w: 2, h: 2 }, label: 'x' }));
    const among = store.corrections.contentsAmong(['hb', 'nowhere', 'ha', 'hc'], 'objects');
    const { numbers } = among;
    expect([...numbers.keys()]).toEqual(['hb', 'ha', 'hc']);
    expect(new Set(numbers.values()).size).toBe(3);
    // Only the content with a correction of the solution is corrected; of another, none.
    expect([...among.corrected]).toEqual(['hc']);
    expect(store.corrections.contentsAmong(['hc'], 'faces').corrected.size).toBe(0);

    store.transaction(() => {
      const writer = store.corrections.bulkWriter();
      const drawn = correction('hb', null, { bbox: { x: 2, y: 2, w: 3, h: 3 }, label: 'y' });
      writer.write([drawn], { resultId: 0, model: [], contentId: numbers.get('hb') as number });
      writer.finish();
    });
    // Found through the content index, keyed on the number.
    expect(store.corrections.forContent('hb', 'objects').map((c) => c.label)).toEqual(['y']);
  });
});
