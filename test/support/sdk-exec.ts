/** Runs an SDK client as a command and captures what it printed, without throwing on failure. */
import { execFile } from 'node:child_process';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCommand(
  file: string,
  args: readonly string[],
  env: Record<string, string>,
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        // PATH is kept so curl, sleep, awk and python3 resolve; nothing else leaks in.
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env },
        cwd: options.cwd,
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Parses a command's stdout as JSON, naming the command's stderr when it is not JSON. */
export function jsonOf<T>(result: CommandResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(
      `not JSON (exit ${result.code}):\n${result.stdout.slice(0, 500)}\n${result.stderr}`,
    );
  }
}
