/** Endpoint 7: one image, analysed synchronously; frames charged only when the analysis succeeded. */
import { authenticate } from '../auth/authenticate.js';
import { ApiError } from '../http/api-error.js';
import { readUpload } from '../http/multipart.js';
import { sendJson } from '../http/respond.js';
import type { Route } from '../http/router.js';
import { modelName } from '../engine/model-name.js';
import { decodeImage } from '../media/image-decode.js';
import type { ServiceContext } from '../service-context.js';
import { detectionsView } from './detections-view.js';
import { requireEngineReady } from './engine-ready.js';
import { servedSolution } from './solution-param.js';

const MiB = 1024 * 1024;

export function inferImageRoute(ctx: ServiceContext): Route {
  const { limits } = ctx.config;
  return {
    method: 'POST',
    path: '/infer/image',
    handler: async (req, res) => {
      const started = performance.now();
      const cred = authenticate(req.headers.authorization, ctx.credentials, ctx.now());
      requireEngineReady(ctx.engine);
      const release = ctx.gate.acquire(cred.id);
      // A client that hangs up before its answer frees its place in the engine queue.
      const aborted = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) aborted.abort();
      });
      try {
        const upload = await readUpload(req, res, {
          maxFileBytes: limits.maxImageBytes,
          tooLargeMessage: `Images may be at most ${limits.maxImageBytes / MiB} MiB.`,
          onField: (name, value) => {
            if (name !== 'solution') return;
            // Fail before the upload is read: unknown solution, or not enough frames for it.
            ctx.ledger.assertAffordable(
              cred.id,
              servedSolution(ctx, value, 'image').frameCost.image,
            );
          },
        });
        const solution = servedSolution(ctx, upload.fields['solution'], 'image');
        if (!upload.buffer || upload.size === 0) {
          throw new ApiError(422, 'empty_file', 'The uploaded file is empty.');
        }
        const image = await decodeImage(upload.buffer, {
          maxPixels: limits.maxImagePixels,
          maxAnalysedSide: limits.maxAnalysedSide,
          formats: limits.imageFormats,
        });
        const cost = solution.frameCost.image;
        const reservation = ctx.ledger.reserve(cred.id, cost);
        let spent = 0;
        try {
          const result = await ctx.engine.detect(solution.id, image.rgb, aborted.signal);
          spent = cost;
          sendJson(res, 200, {
            detections: detectionsView(
              result.detections,
              image.analysedWidth,
              image.analysedHeight,
            ),
            image: {
              width: image.width,
              height: image.height,
              analysedWidth: image.analysedWidth,
              analysedHeight: image.analysedHeight,
              format: image.format,
            },
            stats: {
              model: modelName(ctx.engine, solution),
              inferenceMs: Math.round(result.inferenceMs * 10) / 10,
              totalMs: Math.round((performance.now() - started) * 10) / 10,
            },
            credits: ctx.ledger.state(cred.id, spent),
          });
        } finally {
          ctx.ledger.settle(reservation, spent);
        }
      } finally {
        release();
      }
    },
  };
}
