/**
 * Hosts that do not answer, for connect_timeout tests: one that accepts TCP connections and never
 * says a word (a hung server), and one that never accepts them at all (a blackholed port: a
 * listener with a backlog of 0 whose one queue place is taken, so the kernel drops further SYNs
 * and a connect waits until the client gives up).
 */
import { spawn } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';

export interface SilentHost {
  port: number;
  /** How many TCP connections it accepted (the silent one). */
  readonly accepted: number;
  close(): Promise<void>;
}

export async function acceptsSilently(): Promise<SilentHost> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((s) => {
    accepted += 1;
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    get accepted() {
      return accepted;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Python's socket module listens without accepting (Node accepts every connection itself). */
const LISTENER = `
import socket, sys
s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(0)
print(s.getsockname()[1], flush=True)
sys.stdin.read()`;

export async function neverAccepts(): Promise<SilentHost> {
  const child = spawn('python3', ['-c', LISTENER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
  });
  // The one place in its accept queue, taken: every later connect hangs.
  const filler = connect(port, '127.0.0.1');
  filler.on('error', () => undefined);
  await new Promise((resolve) => filler.once('connect', resolve));
  return {
    port,
    accepted: 0,
    async close() {
      filler.destroy();
      child.stdin.end();
      child.kill();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
