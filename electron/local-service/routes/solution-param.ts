import { badRequest } from '../http/api-error.js';
import { SOLUTIONS, findSolution, type MediaKind, type SolutionSpec } from '../solutions.js';

/** Looks up the `solution` field; an unknown id or one that does not take this media is a 400 naming the valid ids. */
export function solutionFor(id: string | undefined, media: MediaKind): SolutionSpec {
  const valid = SOLUTIONS.filter((s) => s.media.includes(media)).map((s) => s.id);
  if (!id)
    throw badRequest(
      'missing_solution',
      `The field "solution" is required; one of: ${valid.join(', ')}.`,
    );
  const solution = findSolution(id);
  if (!solution || !solution.media.includes(media)) {
    throw badRequest(
      'unknown_solution',
      `Unknown ${media} solution "${id}"; valid: ${valid.join(', ')}.`,
    );
  }
  return solution;
}
