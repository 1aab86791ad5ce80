/**
 * What a lead may assign besides a folder (issue 26 §2, "assign folders or filters"): files of a
 * kind, files the model found a class in, files reviewed or not yet. Each is a condition the hub
 * checks on its own tables (files, answers, work), so the lead's desktop needs no copy of them.
 */
import { TeamError } from './team-errors.js';

export interface WorkFilter {
  kind?: 'image' | 'video';
  /** A label among the model's answers for the file (any solution). */
  label?: string;
  /** Whether a member finished a review of it (a done slot). */
  reviewed?: boolean;
}

const STATES: Record<string, boolean> = { reviewed: true, unreviewed: false };

/** `kind=video`, `class=car`, `state=unreviewed` (each at most once), or a clear error. */
export function parseWorkFilter(terms: readonly string[]): WorkFilter {
  const out: WorkFilter = {};
  const bad = (term: string, why: string) =>
    new TeamError(
      'bad_filter',
      `--filter ${term}: ${why} (kind=image|video, class=LABEL, state=reviewed|unreviewed).`,
    );
  for (const term of terms) {
    const at = term.indexOf('=');
    const [name, value] = at < 0 ? [term, ''] : [term.slice(0, at), term.slice(at + 1)];
    if (value === '') throw bad(term, 'a filter is NAME=VALUE');
    if (name === 'kind' && (value === 'image' || value === 'video') && !out.kind) out.kind = value;
    else if (name === 'class' && out.label === undefined) out.label = value;
    else if (name === 'state' && value in STATES && out.reviewed === undefined)
      out.reviewed = STATES[value];
    else throw bad(term, 'unknown, repeated or of another value');
  }
  return out;
}

/** The filter's conditions on a work row `x` and its file `f`, from parameter `$first` on. */
export function workFilterSql(s: string, first: number): string {
  const [kind, label, reviewed] = [first, first + 1, first + 2].map((n) => `$${n}`);
  return `
    AND (${kind}::text IS NULL OR f.kind = ${kind}::text)
    AND (${label}::text IS NULL OR EXISTS (SELECT 1 FROM ${s}.answers a,
      jsonb_array_elements(CASE WHEN jsonb_typeof(a.answer->'detections') = 'array'
        THEN a.answer->'detections' ELSE '[]'::jsonb END) d
      WHERE a.content_hash = x.content_hash AND d->>'label' = ${label}::text))
    AND (${reviewed}::boolean IS NULL OR ${reviewed}::boolean = EXISTS (SELECT 1 FROM ${s}.work r
      WHERE r.content_hash = x.content_hash AND r.done))`;
}

/** The filter's parameters, in the order of workFilterSql's. */
export const workFilterParams = (f: WorkFilter) => [
  f.kind ?? null,
  f.label ?? null,
  f.reviewed ?? null,
];
