/**
 * A service that does not publish its frame costs (nor `credits` in its answers): LabelDesk learns
 * each cost from GET /key before and after one file sent alone, keeps it per service and solution,
 * and from then on plans, budgets and sends at full concurrency. Frames accounted always equal the
 * service's own count. The service is the embedded one behind a proxy that strips what it publishes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunnerRig } from '../../../support/crash-runner.js';
import { runnerTestMedia } from '../../../support/runner-test-media.js';
import { stripPublishedCosts } from '../../../support/unpublished-costs.js';

const IMAGE_COST = 4; // objects, as the embedded service charges it
const FRAME_COST = 2; // objects, per analysed clip frame

const { images, clips, clipFile, startRig } = runnerTestMedia('labeldesk-learn-media-');

/** The rig's service, with every frame cost and every `credits` taken out of what it says. */
async function unpublishedCosts(): Promise<RunnerRig> {
  const r = await startRig();
  stripPublishedCosts(r.proxy);
  return r;
}

/** The calls that matter for accounting, in the order they reached the proxy. */
const calls = (r: RunnerRig) =>
  r.proxy.requests
    .filter((q) => q.path === '/key' || q.path.startsWith('/infer/'))
    .map((q) => `${q.method} ${q.path}`);

describe('learning a frame cost the service does not publish', () => {
  it('sends the first image alone between two GET /key, learns 4, then sends the rest; frames == the key', async () => {
    const rig = await unpublishedCosts();
    const dir = await images(5);
    const plan = await rig.plan([dir]);
    expect(plan).toMatchObject({ costUnknown: 5, frames: 0, images: 5 });
    const learnt: [string, number][] = [];
    const { summary } = await rig.label([dir], {
      onCostLearnt: (kind, frames) => learnt.push([kind, frames]),
    });
    expect(summary).toMatchObject({ labelled: 5, failed: [], uncertain: [], stoppedFor: null });
    expect(learnt).toEqual([['image', IMAGE_COST]]);
    // Run start, then the learning call alone between two reads of the key.
    expect(calls(rig).slice(0, 4)).toEqual([
      'GET /key',
      'GET /key',
      'POST /infer/image',
      'GET /key',
    ]);
    // The rest at full concurrency, then the key read once more: its count agrees with the run's.
    expect(calls(rig).slice(4)).toEqual([...Array(4).fill('POST /infer/image'), 'GET /key']);
    expect(await rig.spent()).toBe(5 * IMAGE_COST);
    expect(rig.ledger()).toBe(5 * IMAGE_COST);
    expect(summary.framesSpent).toBe(5 * IMAGE_COST);
    expect(rig.store.costs.get(rig.proxy.url, 'objects')).toEqual({
      image: IMAGE_COST,
      videoFrame: null,
    });

    // Kept in the library: the next plan knows the cost, and nothing is measured again.
    const next = await images(3);
    const again = await rig.plan([next]);
    expect(again).toMatchObject({ costUnknown: 0, frames: 3 * IMAGE_COST });
    const before = calls(rig).length;
    const second = await rig.label([next]);
    expect(second.summary.labelled).toBe(3);
    expect(calls(rig).slice(before)).toEqual([
      'GET /key',
      ...Array(3).fill('POST /infer/image'),
      'GET /key',
    ]);
    expect(await rig.spent()).toBe(8 * IMAGE_COST);
    expect(rig.ledger()).toBe(8 * IMAGE_COST);
  });

  it('when the key lost more than the learnt cost accounts for (the price changed), the ledger takes the key’s count and the cost is learnt again', async () => {
    const rig = await unpublishedCosts();
    // Learnt when the service charged 3 an image; it charges 4 now.
    rig.store.costs.set(rig.proxy.url, 'objects', 'image', 3, Date.now());
    const drifts: number[] = [];
    const { plan, summary } = await rig.label([await images(3)], {
      onCostDrift: (frames) => drifts.push(frames),
    });
    expect(plan).toMatchObject({ costUnknown: 0, frames: 3 * 3 });
    expect(summary.labelled).toBe(3);
    expect(drifts).toEqual([3 * (IMAGE_COST - 3)]);
    expect(summary.framesSpent).toBe(3 * IMAGE_COST);
    expect(await rig.spent()).toBe(3 * IMAGE_COST);
    expect(rig.ledger()).toBe(3 * IMAGE_COST);
    expect(rig.store.costs.get(rig.proxy.url, 'objects').image).toBeNull();
    expect((await rig.plan([await images(1)])).costUnknown).toBe(1);
  });

  it('the learning call goes alone; once the cost is known the run goes back to full concurrency', async () => {
    const rig = await startRig({ service: { latencyMs: 150 } });
    stripPublishedCosts(rig.proxy);
    const port = rig.port as { inferImage: RunnerRig['port']['inferImage'] };
    const send = port.inferImage.bind(port);
    let inFlight = 0;
    const peaks: number[] = [];
    port.inferImage = async (input) => {
      inFlight++;
      peaks.push(inFlight);
      try {
        return await send(input);
      } finally {
        inFlight--;
      }
    };
    const { summary } = await rig.label([await images(6)], { concurrency: 4 });
    expect(summary.labelled).toBe(6);
    // The first call alone; the rest overlapping as the concurrency allows.
    expect(peaks[0]).toBe(1);
    expect(peaks[1]).toBe(1);
    expect(Math.max(...peaks)).toBeGreaterThan(1);
    expect(rig.ledger()).toBe(await rig.spent());
  });

  it('a run budget is not exceeded once the cost is known: 10 frames buy 2 images of 4', async () => {
    const rig = await unpublishedCosts();
    const dir = await images(5);
    const { summary } = await rig.label([dir], { budgetFrames: 10, concurrency: 4 });
    expect(summary).toMatchObject({ labelled: 2, stoppedFor: 'run-budget' });
    expect(await rig.spent()).toBe(2 * IMAGE_COST);
    expect(rig.ledger()).toBe(2 * IMAGE_COST);
    expect(summary.framesSpent).toBe(2 * IMAGE_COST);
  });

  it('before the cost is known only the first file is at risk: a budget of 1 spends one image, no more', async () => {
    const rig = await unpublishedCosts();
    const dir = await images(3);
    const { summary } = await rig.label([dir], { budgetFrames: 1 });
    expect(summary).toMatchObject({ labelled: 1, stoppedFor: 'run-budget' });
    expect(await rig.spent()).toBe(IMAGE_COST);
    expect(rig.ledger()).toBe(IMAGE_COST);
  });

  it('a clip teaches the per-frame cost from the key before and after its job; the ledger equals the key', async () => {
    const rig = await unpublishedCosts();
    const dir = await clips(['c.mp4', 'd.mp4']);
    await writeFile(
      join(dir, 'e.mp4'),
      Buffer.concat([await readFile(clipFile()), Buffer.from('x')]),
    );
    const plan = await rig.plan([dir]);
    // c.mp4 and d.mp4 are one content: two distinct clips to send.
    expect(plan).toMatchObject({ costUnknown: 2, clips: 2, frames: 0 });
    const { summary } = await rig.label([dir]);
    expect(summary).toMatchObject({ labelled: 2, failed: [], uncertain: [] });
    expect(rig.store.costs.get(rig.proxy.url, 'objects').videoFrame).toBe(FRAME_COST);
    const spent = await rig.spent();
    expect(spent).toBeGreaterThan(0);
    expect(rig.ledger()).toBe(spent);
    expect(summary.framesSpent).toBe(spent);
    const again = await rig.plan([dir]);
    expect(again.costUnknown).toBe(0);
  });
});
