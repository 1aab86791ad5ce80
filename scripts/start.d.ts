// Types of scripts/start.js for the tests that drive its decisions.
export type LaunchDecision =
  { mode: 'electron'; binary: string } | { mode: 'browser'; reason: string };

export function electronBinary(
  root?: string,
  exists?: (path: string) => boolean,
  read?: (path: string, encoding: 'utf8') => string,
): string | undefined;
export function hasDisplay(platform: string, env: Record<string, string | undefined>): boolean;
export function decideLaunch(probe: {
  binary: string | undefined;
  platform: string;
  env: Record<string, string | undefined>;
}): LaunchDecision;
export function buildIsStale(root?: string): boolean;
export function browserModeLine(reason: string): string;
