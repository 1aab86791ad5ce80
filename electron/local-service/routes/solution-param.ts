import { badRequest } from '../http/api-error.js';
import type { DetectionEngine } from '../engine/engine-types.js';
import type { MediaKind, SolutionSpec } from '../solutions.js';
import { refuseUnloadable } from './engine-ready.js';

/** Looks up the `solution` field; an unknown id or one that does not take this media is a 400 naming the valid ids. */
export function solutionFor(
  solutions: readonly SolutionSpec[],
  id: string | undefined,
  media: MediaKind,
): SolutionSpec {
  const valid = solutions.filter((s) => s.media.includes(media)).map((s) => s.id);
  if (!id)
    throw badRequest(
      'missing_solution',
      `The field "solution" is required; one of: ${valid.join(', ')}.`,
    );
  const solution = solutions.find((s) => s.id === id);
  if (!solution || !solution.media.includes(media)) {
    throw badRequest(
      'unknown_solution',
      `Unknown ${media} solution "${id}"; valid: ${valid.join(', ')}.`,
    );
  }
  return solution;
}

/** The solution asked for, refused with a 503 when it could not load. */
export function servedSolution(
  ctx: { solutions: readonly SolutionSpec[]; engine: DetectionEngine },
  id: string | undefined,
  media: MediaKind,
): SolutionSpec {
  const solution = solutionFor(ctx.solutions, id, media);
  refuseUnloadable(ctx.engine, solution.id);
  return solution;
}
