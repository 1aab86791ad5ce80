import type { Fixture } from './service-fixture.js';

/** Polls a job honouring pollIntervalMs until it finishes (or `until` says stop). */
export async function pollJob(
  f: Fixture,
  jobId: string,
  options: { token?: string; until?: (job: any) => boolean; timeoutMs?: number } = {},
): Promise<any> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const { status, body } = await f.call(
      `/jobs/${jobId}`,
      options.token ? { token: options.token } : {},
    );
    if (status !== 200) throw new Error(`poll answered ${status}: ${JSON.stringify(body)}`);
    const done = options.until
      ? options.until(body)
      : ['succeeded', 'failed', 'cancelled'].includes(body.status);
    if (done) return body;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${body.status}`);
    await new Promise((r) => setTimeout(r, Math.min(body.pollIntervalMs, 300)));
  }
}
