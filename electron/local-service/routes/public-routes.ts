/** Endpoints 1–3: no authentication. */
import { engineName } from '../engine/model-name.js';
import { ApiError } from '../http/api-error.js';
import { sendJson, sendText } from '../http/respond.js';
import type { Route } from '../http/router.js';
import type { ServiceContext } from '../service-context.js';

export function publicRoutes(ctx: ServiceContext): Route[] {
  const sdk = [...ctx.sdkSources].map(([lang, s]) => ({
    lang,
    path: `/sdk/${lang}`,
    filename: s.filename,
  }));
  const solutions = ctx.solutions.map(
    ({ id, name, description, media, classes, frameCost, scoreFloor, card }) => ({
      id,
      name,
      description,
      media,
      classes,
      frameCost,
      scoreFloor,
      // An own ONNX model's card: its file, size, input, type and where its class names came from.
      ...(card ? { modelCard: card } : {}),
    }),
  );
  const limits = ctx.config.limits;
  return [
    {
      method: 'GET',
      path: '/catalog',
      handler: (_req, res) => {
        sendJson(res, 200, {
          version: ctx.version,
          aiStatus: ctx.engine.status().state,
          engine: engineName(ctx.engine),
          // Where the interface is silent: a box's x,y is its top-left corner (bbox and bboxPx).
          boxOrigin: 'corner',
          limits,
          sdk,
          solutions,
        });
      },
    },
    {
      method: 'GET',
      path: '/healthz',
      handler: (_req, res) => {
        const engine = ctx.engine.status();
        sendJson(res, 200, {
          status: 'ok',
          uptimeSec: Math.floor((ctx.now() - ctx.startedAt) / 1000),
          enabled: true,
          ai: engine.state,
          engine: engineName(ctx.engine),
          solutions: engine.solutions,
          ...(engine.error ? { aiError: engine.error } : {}),
        });
      },
    },
    {
      method: 'GET',
      path: /^\/sdk\/([^/]+)$/,
      handler: (_req, res, [lang]) => {
        const source = ctx.sdkSources.get(lang ?? '');
        if (!source) {
          throw new ApiError(
            404,
            'unknown_sdk_language',
            `No client for "${lang}"; available: ${[...ctx.sdkSources.keys()].join(', ')}.`,
          );
        }
        res.setHeader('Content-Disposition', `inline; filename="${source.filename}"`);
        sendText(res, 200, source.body, source.contentType);
      },
    },
  ];
}
