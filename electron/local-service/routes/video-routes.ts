/** Endpoints 8–10: clips are uploaded to disk, probed, priced, reserved, then analysed as jobs. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { authenticate } from '../auth/authenticate.js';
import { sampledFrameCount } from '../config.js';
import { ApiError, tooLarge } from '../http/api-error.js';
import { readUpload } from '../http/multipart.js';
import { sendJson } from '../http/respond.js';
import type { Route } from '../http/router.js';
import type { StoredJobInfo } from '../jobs/video-jobs.js';
import { analysedSize } from '../media/analysed-size.js';
import { probeVideo } from '../media/video-probe.js';
import type { ServiceContext } from '../service-context.js';
import { FINISHED, type JobRow } from '../store/jobs-repo.js';
import { requireEngineReady } from './engine-ready.js';
import { servedSolution } from './solution-param.js';

const MiB = 1024 * 1024;

export function videoRoutes(ctx: ServiceContext): Route[] {
  const { limits } = ctx.config;

  /** The creator's job, or 404 whether it is missing or someone else's: never reveal it exists. */
  const ownJob = (authorization: string | undefined, id: string): JobRow => {
    const cred = authenticate(authorization, ctx.credentials, ctx.now());
    const job = ctx.jobsRepo.get(id);
    if (!job || job.credential_id !== cred.id) {
      throw new ApiError(404, 'job_not_found', `There is no job ${id} for this token.`);
    }
    return job;
  };

  const view = (job: JobRow) => {
    const info = JSON.parse(job.info) as StoredJobInfo;
    const finished = FINISHED.has(job.status);
    const base = {
      jobId: job.id,
      status: job.status,
      progress: job.status === 'succeeded' ? 1 : Math.min(1, job.frames_done / job.frames_expected),
      queuePosition: ctx.videoJobs.queuePosition(job.id),
      pollIntervalMs: ctx.videoJobs.pollIntervalMs(),
      framesAnalysed: job.frames_done,
      framesExpected: job.frames_expected,
    };
    const withResult =
      finished && job.frames_done > 0
        ? {
            result: {
              fps: info.fps,
              sampledFps: info.sampleFps,
              durationMs: info.durationMs,
              width: info.width,
              height: info.height,
              analysedWidth: info.analysedWidth,
              analysedHeight: info.analysedHeight,
              frames: ctx.jobsRepo.frames(job.id).map((f) => ({
                index: f.idx,
                timeMs: f.time_ms,
                detections: JSON.parse(f.detections) as unknown,
              })),
            },
          }
        : {};
    const withError = job.error_code
      ? { error: { code: job.error_code, message: job.error_message ?? '' } }
      : {};
    return { ...base, ...withResult, ...withError };
  };

  /** Receives one clip to disk, then probes, prices, reserves and queues it (the upload is removed unless queued). */
  const submitClip = async (credentialId: string, req: IncomingMessage, res: ServerResponse) => {
    const jobId = randomUUID();
    const uploadPath = join(ctx.uploadsDir, `${jobId}.upload`);
    const upload = await readUpload(req, res, {
      maxFileBytes: limits.maxVideoBytes,
      tooLargeMessage: `Clips may be at most ${limits.maxVideoBytes / MiB} MiB.`,
      toPath: uploadPath,
      onField: (name, value) => {
        if (name !== 'solution') return;
        ctx.ledger.assertAffordable(
          credentialId,
          servedSolution(ctx, value, 'video').frameCost.videoFrame,
        );
      },
    });
    let queued = false;
    try {
      const solution = servedSolution(ctx, upload.fields['solution'], 'video');
      if (upload.size === 0) throw new ApiError(422, 'empty_file', 'The uploaded file is empty.');
      const info = await probeVideo(uploadPath);
      if (info.durationMs > limits.maxVideoSeconds * 1000) {
        throw tooLarge(
          'video_too_long',
          `Clips may be at most ${limits.maxVideoSeconds} s long; this one is ${Math.round(info.durationMs / 1000)} s.`,
        );
      }
      const framesExpected = sampledFrameCount(info.durationMs, limits.videoSampleFps);
      const frameCost = solution.frameCost.videoFrame;
      ctx.videoJobs.assertRoom();
      const reservation = ctx.ledger.reserve(credentialId, framesExpected * frameCost);
      const analysed = analysedSize(info.width, info.height, limits.maxAnalysedSide);
      const stored: StoredJobInfo = {
        ...info,
        analysedWidth: analysed.width,
        analysedHeight: analysed.height,
        sampleFps: limits.videoSampleFps,
      };
      try {
        ctx.jobsRepo.insert({
          id: jobId,
          credential_id: credentialId,
          solution: solution.id,
          upload_path: uploadPath,
          frame_cost: frameCost,
          frames_expected: framesExpected,
          frames_reserved: reservation.frames,
          reserved_hour: reservation.hour,
          info: JSON.stringify(stored),
          created_at: ctx.now(),
        });
      } catch (err) {
        ctx.ledger.settle(reservation, 0);
        throw err;
      }
      ctx.videoJobs.enqueue(jobId);
      queued = true;
      sendJson(res, 202, {
        jobId,
        status: 'queued',
        queuePosition: ctx.videoJobs.queuePosition(jobId),
        pollUrl: `/jobs/${jobId}`,
        pollIntervalMs: ctx.videoJobs.pollIntervalMs(),
        credits: { ...ctx.ledger.state(credentialId, 0), reserved: reservation.frames },
      });
    } finally {
      if (!queued) await unlink(uploadPath).catch(() => undefined);
    }
  };

  return [
    {
      method: 'POST',
      path: '/infer/video',
      handler: async (req, res) => {
        const cred = authenticate(req.headers.authorization, ctx.credentials, ctx.now());
        requireEngineReady(ctx.engine);
        ctx.videoJobs.assertRoom();
        const releaseSlot = ctx.uploadSlots.acquire(cred.id);
        try {
          await submitClip(cred.id, req, res);
        } finally {
          releaseSlot();
        }
      },
    },
    {
      method: 'GET',
      path: /^\/jobs\/([^/]+)$/,
      handler: (req, res, [id]) => {
        sendJson(res, 200, view(ownJob(req.headers.authorization, id ?? '')));
      },
    },
    {
      method: 'DELETE',
      path: /^\/jobs\/([^/]+)$/,
      handler: async (req, res, [id]) => {
        const job = ownJob(req.headers.authorization, id ?? '');
        if (!FINISHED.has(job.status)) await ctx.videoJobs.cancel(job.id);
        const after = ctx.jobsRepo.get(job.id) ?? job;
        sendJson(res, 200, { jobId: after.id, status: after.status });
      },
    },
  ];
}
