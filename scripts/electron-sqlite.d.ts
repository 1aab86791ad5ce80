// Types of scripts/electron-sqlite.js for its tests.
export interface WantedBuild {
  electron: string;
  abi: string;
  betterSqlite3: string;
  platform: string;
  arch: string;
}
export const OUT_DIR: string;
export const BINDING: string;
export function wantedBuild(root?: string): WantedBuild;
export function isUpToDate(wanted: WantedBuild, stampFile?: string, bindingFile?: string): boolean;
export function builtForAbi(file: string, abi: string): boolean;
export function buildElectronSqlite(options?: {
  verbose?: boolean;
  root?: string;
}): string | undefined;
export function cannotBuild(wanted: WantedBuild): string;
export function failureLine(problem: string): string;
