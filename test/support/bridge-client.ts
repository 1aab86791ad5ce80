/** The browser-mode bridge as a test drives it: the printed URL's secret, calls by name. */
import WebSocket from 'ws';

export interface Reply {
  ok: boolean;
  result?: any;
  error?: { code: string; message: string };
}

export interface BridgeClient {
  call(name: string, input: unknown): Promise<Reply>;
  close(): void;
}

export function openBridge(printedUrl: string): Promise<BridgeClient> {
  const url = new URL(printedUrl);
  const secret = url.hash.slice('#secret='.length);
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${url.host}/bridge`, ['labeldesk.v1', `secret.${secret}`], {
      origin: url.origin,
    });
    let id = 0;
    const waiting = new Map<number, (reply: Reply) => void>();
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as Reply & { type: string; id: number };
      if (msg.type === 'reply') waiting.get(msg.id)?.(msg);
    });
    // The app quitting closes the socket: calls still waiting then settle as failed.
    ws.on('close', () => {
      for (const done of waiting.values())
        done({ ok: false, error: { code: 'closed', message: '' } });
    });
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        call: (name, input) =>
          new Promise((done) => {
            const n = ++id;
            waiting.set(n, done);
            ws.send(JSON.stringify({ type: 'call', id: n, name, input }));
          }),
        close: () => ws.close(),
      }),
    );
  });
}
