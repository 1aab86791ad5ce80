/** Shapes shared by several features of the contract. */
import { z } from './zod.js';

// Apart from the schemas so that Node code can throw it without loading zod.
export { LabelDeskError } from './labeldesk-error.js';

export const Id = z.number().int().positive();
export const Empty = z.object({}).strict();
export const Ok = z.object({ ok: z.literal(true) });

/** A per-file problem: one code, one sentence. */
export const FileIssue = z.object({
  path: z.string(),
  code: z.string(),
  message: z.string(),
});
export type FileIssue = z.infer<typeof FileIssue>;

export const MediaKind = z.enum(['image', 'video']);
export type MediaKind = z.infer<typeof MediaKind>;

/** Every failure crosses the contract as a code and a sentence. */
export const ErrorBody = z.object({ code: z.string(), message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBody>;
