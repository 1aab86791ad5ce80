import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planRun, UnknownSolutionError } from '../../../../electron/core/runner/plan-run.js';
import type { MediaRecord, MediaUpsert } from '../../../../electron/core/store/store-types.js';
import { testCatalog } from '../../../support/crash-fake-service.js';
import { mediaRow, result, storeFixture, type StoreFixture } from '../store/store-fixture.js';

let fx: StoreFixture;
let folderId: number;
let runId: number;
const catalog = testCatalog();

beforeEach(async () => {
  fx = await storeFixture();
  folderId = fx.store.folders.add('/lib').id;
  runId = fx.store.runs.create({
    serviceUrl: 'http://svc',
    solution: 'objects',
    estimateFrames: 0,
    budgetFrames: null,
    at: fx.clock.t,
  });
});
afterEach(() => fx.done());

function add(path: string, over: Partial<MediaUpsert> = {}): MediaRecord {
  const [id] = fx.store.media.upsertMany([
    mediaRow(folderId, path, { contentHash: `h:${path}`, ...over }),
  ]);
  return fx.store.media.byId(id!)!;
}

const clipOf = (path: string, durationMs: number | null, over: Partial<MediaUpsert> = {}) =>
  add(path, { kind: 'video', durationMs, fps: 25, ...over });

function submission(m: MediaRecord, solution = 'objects'): number {
  return fx.store.submissions.create({
    runId,
    mediaId: m.id,
    contentHash: m.contentHash!,
    solution,
    framesReserved: 4,
  });
}

const paths = (list: readonly { media: MediaRecord }[] | readonly MediaRecord[]) =>
  list.map((x) => ('media' in x ? x.media.path : x.path));

describe('planRun', () => {
  it('prices images × image cost and clips × ceil(duration × sampleFps) × frame cost', () => {
    const media = [
      add('/lib/a.jpg'),
      add('/lib/b.png'),
      clipOf('/lib/c.mp4', 10_000), // 50 frames
      clipOf('/lib/d.mp4', 1_010), // 5.05 → 6 frames
      clipOf('/lib/e.webm', 10), // never less than one frame
    ];
    const plan = planRun(fx.store, catalog, 'objects', media);
    expect(plan).toMatchObject({ images: 2, clips: 3 });
    expect(plan.items.map((i) => i.cost)).toEqual([4, 4, 100, 12, 2]);
    expect(plan.frames).toBe(4 + 4 + 100 + 12 + 2);
    expect(plan.reused).toEqual([]);
  });

  it('reuses content already labelled with this solution, and not with another', () => {
    const a = add('/lib/a.jpg');
    fx.store.results.save(result(a.contentHash!, []));
    expect(paths(planRun(fx.store, catalog, 'objects', [a]).reused)).toEqual(['/lib/a.jpg']);
    const plan = planRun(fx.store, catalog, 'stills', [a]);
    expect(plan.reused).toEqual([]);
    expect(plan.frames).toBe(1);
  });

  it('sends one copy of duplicate content and reports the others', () => {
    const a = add('/lib/a.jpg', { contentHash: 'same' });
    const b = add('/lib/copy/a.jpg', { contentHash: 'same' });
    const plan = planRun(fx.store, catalog, 'objects', [a, b]);
    expect(paths(plan.items)).toEqual(['/lib/a.jpg']);
    expect(paths(plan.duplicates)).toEqual(['/lib/copy/a.jpg']);
    expect(plan.frames).toBe(4);
  });

  it('refuses locally, costing nothing, what breaks the published limits', () => {
    const limits = catalog.limits;
    const media = [
      add('/lib/big.jpg', { size: limits.maxImageBytes + 1 }),
      add('/lib/vector.svg'),
      add('/lib/noext'),
      clipOf('/lib/long.mp4', (limits.maxVideoSeconds + 1) * 1000),
      clipOf('/lib/huge.mp4', 1000, { size: limits.maxVideoBytes + 1 }),
      clipOf('/lib/old.avi', 1000), // avi is not in this catalog's videoFormats
      clipOf('/lib/unprobed.mp4', null),
      add('/lib/unread.jpg', { status: 'error', errorCode: 'decode_failed', errorMessage: 'bad' }),
      add('/lib/unhashed.jpg', { contentHash: null }),
    ];
    const plan = planRun(fx.store, catalog, 'objects', media);
    expect(plan.items).toEqual([]);
    expect(plan.frames).toBe(0);
    expect(Object.fromEntries(plan.refused.map((r) => [r.media.path, r.code]))).toEqual({
      '/lib/big.jpg': 'file_too_large',
      '/lib/vector.svg': 'unsupported_format',
      '/lib/noext': 'unsupported_format',
      '/lib/long.mp4': 'video_too_long',
      '/lib/huge.mp4': 'file_too_large',
      '/lib/old.avi': 'unsupported_format',
      '/lib/unprobed.mp4': 'unprobed_clip',
      '/lib/unread.jpg': 'decode_failed',
      '/lib/unhashed.jpg': 'not_hashed',
    });
    for (const r of plan.refused) expect(r.message).not.toBe('');
  });

  it('refuses clips for a solution that takes only images', () => {
    const plan = planRun(fx.store, catalog, 'stills', [clipOf('/lib/c.mp4', 2000)]);
    expect(plan.refused.map((r) => r.code)).toEqual(['unsupported_media']);
  });

  it('an unknown solution is an error naming the ones on offer', () => {
    expect(() => planRun(fx.store, catalog, 'cats', [])).toThrow(UnknownSolutionError);
    expect(() => planRun(fx.store, catalog, 'cats', [])).toThrow(/objects, stills/);
  });

  it('skips uncertain files unless retryUncertain, keeping their reason', () => {
    const a = add('/lib/a.jpg');
    const id = submission(a);
    fx.store.submissions.setState(id, 'sending');
    fx.store.submissions.setState(id, 'uncertain', {
      errorCode: 'answer_lost',
      errorMessage: 'lost',
    });
    const plan = planRun(fx.store, catalog, 'objects', [a]);
    expect(plan.items).toEqual([]);
    expect(plan.frames).toBe(0);
    expect(plan.uncertain).toEqual([
      expect.objectContaining({ code: 'answer_lost', message: 'lost' }),
    ]);
    const retry = planRun(fx.store, catalog, 'objects', [a], { retryUncertain: true });
    expect(paths(retry.items)).toEqual(['/lib/a.jpg']);
    expect(retry.items[0]?.resumeSubmissionId).toBeUndefined();
    expect(retry.frames).toBe(4);
  });

  it('a file left `sending` by a run that died is uncertain too: it may have been charged', () => {
    const a = add('/lib/a.jpg');
    fx.store.submissions.setState(submission(a), 'sending');
    const plan = planRun(fx.store, catalog, 'objects', [a]);
    expect(plan.items).toEqual([]);
    expect(plan.uncertain).toEqual([expect.objectContaining({ code: 'interrupted_in_flight' })]);
    expect(
      paths(planRun(fx.store, catalog, 'objects', [a], { retryUncertain: true }).items),
    ).toEqual(['/lib/a.jpg']);
  });

  it('refuses bytes the service refused, unless a person retries them (retryRefused)', () => {
    const a = add('/lib/a.jpg');
    fx.store.submissions.setState(submission(a), 'failed', {
      errorCode: 'undecodable_media',
      errorMessage: 'The image could not be decoded.',
    });
    const plan = planRun(fx.store, catalog, 'objects', [a]);
    expect(plan.items).toEqual([]);
    expect(plan.refused).toEqual([expect.objectContaining({ code: 'undecodable_media' })]);
    const retry = planRun(fx.store, catalog, 'objects', [a], { retryRefused: true });
    expect(paths(retry.items)).toEqual(['/lib/a.jpg']);
    expect(retry.refused).toEqual([]);
  });

  it('sends again what never left (queued, failed, cancelled, waiting for credits)', () => {
    const queued = add('/lib/q.jpg');
    submission(queued);
    const failed = add('/lib/f.jpg');
    const f = submission(failed);
    fx.store.submissions.setState(f, 'failed');
    const waiting = add('/lib/w.jpg');
    fx.store.submissions.setState(submission(waiting), 'waiting-for-credits');
    const cancelled = add('/lib/c.jpg');
    fx.store.submissions.setState(submission(cancelled), 'cancelled');
    const plan = planRun(fx.store, catalog, 'objects', [queued, failed, waiting, cancelled]);
    expect(paths(plan.items).sort()).toEqual([
      '/lib/c.jpg',
      '/lib/f.jpg',
      '/lib/q.jpg',
      '/lib/w.jpg',
    ]);
    expect(plan.uncertain).toEqual([]);
  });

  it('resumes a clip whose job exists, at no new cost, without uploading it again', () => {
    const c = clipOf('/lib/c.mp4', 2_000);
    const id = submission(c);
    fx.store.submissions.setState(id, 'sending');
    fx.store.submissions.setJob(id, 'job-1', 'running');
    const plan = planRun(fx.store, catalog, 'objects', [c]);
    expect(plan.items).toEqual([expect.objectContaining({ resumeSubmissionId: id, cost: 20 })]);
    expect(plan.frames).toBe(0); // already paid for
    expect(plan.clips).toBe(1);
    expect(plan.uncertain).toEqual([]);
  });

  it('does not resume a clip whose job finished', () => {
    const c = clipOf('/lib/c.mp4', 2_000);
    const id = submission(c);
    fx.store.submissions.setState(id, 'sending');
    fx.store.submissions.setJob(id, 'job-1', 'running');
    fx.store.submissions.setState(id, 'failed', { errorCode: 'job_failed' });
    const plan = planRun(fx.store, catalog, 'objects', [c]);
    expect(plan.items).toEqual([expect.not.objectContaining({ resumeSubmissionId: id })]);
    expect(plan.frames).toBe(20);
  });

  it('reads the store only', () => {
    const a = add('/lib/a.jpg');
    planRun(fx.store, catalog, 'objects', [a, clipOf('/lib/c.mp4', 1000)]);
    expect(fx.store.submissions.latestFor(a.contentHash!, 'objects')).toBeUndefined();
  });
});
