/**
 * A catalog snapshot kept in the library (what an offline start plans against) read back through
 * its schema: a snapshot written by another build, or damaged, is a clear error here, not an
 * object of the wrong shape that fails later in an estimate or a filter. Fields added to the
 * adapter's catalog after snapshots were first stored get the value that meant "not said".
 */
import { z } from '../../../shared/contract/zod.js';
import type { Catalog } from './adapter-types.js';

const frameCost = z.number().nullable().default(null);

const solution = z.object({
  id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  media: z.array(z.enum(['image', 'video'])),
  classes: z.array(z.string()),
  classIds: z.array(z.number()).optional(),
  frameCost: z.object({ image: frameCost, videoFrame: frameCost }),
});

const limits = z.object({
  maxImageBytes: z.number(),
  maxVideoBytes: z.number(),
  maxVideoSeconds: z.number(),
  imageFormats: z.array(z.string()),
  videoFormats: z.array(z.string()),
  maxConcurrentRequests: z.number(),
  maxConcurrentJobs: z.number(),
  maxQueuedJobs: z.number(),
  hourFrames: z.number(),
  sessionFrames: z.number().optional(),
  trialKeyFrames: z.number().optional(),
  videoSampleFps: z.number(),
  pollIntervalMs: z.object({ min: z.number(), max: z.number() }),
  notPublished: z.array(z.object({ name: z.string(), using: z.string() })).default([]),
});

const note = z.object({
  field: z.string(),
  kind: z.enum(['understood-as', 'not-published']),
  text: z.string(),
});

export const StoredCatalogSchema = z.object({
  version: z.string(),
  boxOrigin: z.enum(['corner', 'centre']).nullable().default(null),
  aiStatus: z.string().nullable().default(null),
  limits,
  sdk: z
    .array(z.object({ lang: z.string(), path: z.string(), filename: z.string().optional() }))
    .default([]),
  solutions: z.array(solution),
  understanding: z.array(note).default([]),
}) satisfies z.ZodType<Catalog, unknown>;

export class StoredCatalogError extends Error {
  override readonly name = 'StoredCatalogError';
  readonly code = 'catalog_snapshot_invalid';
  constructor(serviceUrl: string, why: string) {
    super(
      `The catalog stored for ${serviceUrl} cannot be read (${why}); connect to the service once to store a fresh one.`,
    );
  }
}

/** The snapshot's catalog, or a StoredCatalogError saying what is wrong with it. */
export function parseStoredCatalog(serviceUrl: string, body: string): Catalog {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new StoredCatalogError(serviceUrl, 'not JSON');
  }
  const parsed = StoredCatalogSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new StoredCatalogError(
    serviceUrl,
    `${issue?.path.join('.') || 'catalog'}: ${issue?.message ?? 'invalid'}`,
  );
}

/** The catalog last stored for `serviceUrl`, parsed; `undefined` when none was stored. */
export function latestStoredCatalog(
  catalogs: { latest(serviceUrl: string): { body: string } | undefined },
  serviceUrl: string,
): Catalog | undefined {
  const snapshot = catalogs.latest(serviceUrl);
  return snapshot && parseStoredCatalog(serviceUrl, snapshot.body);
}
