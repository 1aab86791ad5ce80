/**
 * The browser bridge: a round trip for a page of 200 library items (from a 100,000-item library)
 * through the real application layer, against a bare WebSocket echo of the same bytes in the same
 * run (the cost of the socket alone).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';
import { startBrowserMode } from '../electron/application/browser/browser-server.js';
import { TEST_HOME_MARKER } from '../electron/application/service-connection.js';
import { fmt, printFigures } from './report.js';
import { buildSyntheticLibrary } from './store-bench.js';

const ITEMS = 100_000;
const ROUNDS = 300;
const PAGE = 200;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

/** Sends each message and waits for its reply (events pushed meanwhile are skipped). */
async function timeRoundTrips(ws: WebSocket, message: (i: number) => string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 1; i <= ROUNDS; i++) {
    const t0 = performance.now();
    await nextReply(ws, () => ws.send(message(i)));
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

/** Resolves with the text of the next reply (one call is out at a time). */
function nextReply(ws: WebSocket, send: () => void): Promise<string> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const text = data.toString();
      const msg = JSON.parse(text) as { type?: string; id?: number };
      // Events pushed meanwhile are skipped; the echo's copies of one reply all count.
      if (msg.type === 'event') return;
      ws.off('message', onMessage);
      resolve(text);
    };
    ws.on('message', onMessage);
    send();
  });
}

function open(url: string, protocols: string[] = [], origin?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, origin ? { origin } : {});
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

export async function benchBridge(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'labeldesk-bridge-bench-'));
  try {
    const home = join(dir, 'home');
    await mkdir(home);
    buildSyntheticLibrary(join(home, 'library.sqlite'), ITEMS, 10);
    await writeFile(join(home, TEST_HOME_MARKER), '');
    const renderer = join(dir, 'renderer');
    await mkdir(renderer);
    const mode = await startBrowserMode({
      rendererDir: renderer,
      // A throwaway bench library: the stand-in engine is allowed only on one marked as such.
      env: { ...process.env, LABELDESK_HOME: home, LABELDESK_EMBEDDED_ENGINE: 'null' },
    });
    const secret = new URL(mode.url).hash.replace('#secret=', '');
    const ws = await open(
      `${mode.origin.replace('http', 'ws')}/bridge`,
      ['labeldesk.v1', `secret.${secret}`],
      mode.origin,
    );
    const call = (i: number) =>
      JSON.stringify({
        type: 'call',
        id: i,
        name: 'library.page',
        input: {
          filter: { solution: 'objects' },
          offset: ((i * 7919) % (ITEMS / PAGE)) * PAGE,
          limit: PAGE,
        },
      });
    // One reply's bytes, for the echo baseline.
    const sample = await nextReply(ws, () => ws.send(call(0)));
    const bridge = await timeRoundTrips(ws, call);
    ws.close();
    await mode.close();

    const echo = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    echo.on('connection', (s) => s.on('message', () => s.send(sample)));
    await new Promise((r) => echo.once('listening', r));
    const port = (echo.address() as { port: number }).port;
    const bare = await open(`ws://127.0.0.1:${port}`);
    const baseline = await timeRoundTrips(bare, call);
    bare.close();
    echo.close();

    const med = (t: number[]) => percentile(t, 0.5);
    printFigures('Bridge round trip: a page of 200 items from 100,000', [
      {
        name: 'bridge (validate, query, encode, socket)',
        value: `median ${fmt(med(bridge), 2)} ms, p95 ${fmt(percentile(bridge, 0.95), 2)} ms, reply ${fmt(sample.length / 1024)} KB`,
      },
      {
        name: 'bare WebSocket echo of the same bytes',
        value: `median ${fmt(med(baseline), 2)} ms, p95 ${fmt(percentile(baseline, 0.95), 2)} ms`,
      },
      { name: 'ratio bridge / bare (median)', value: `${fmt(med(bridge) / med(baseline), 1)}×` },
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
