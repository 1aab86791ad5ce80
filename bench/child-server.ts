/** Starts a server as a child process and waits for the line with its URL. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ChildServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function startChild(
  script: string,
  args: string[],
  startedAt = performance.now(),
): Promise<ChildServer & { startedAt: number }> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}: ${err}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (!m?.[1]) return;
      resolve({
        url: m[1],
        child,
        startedAt,
        stop: () =>
          new Promise<void>((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
