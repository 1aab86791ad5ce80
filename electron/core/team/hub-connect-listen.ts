/**
 * LISTEN that outlives its connection. postgres.js re-listens by itself after a connection
 * closes, but once: if the hub is still away at that moment (a primary just died, its standby
 * not yet promoted) the channel stays failed for good. Here each loss of the listening
 * connection starts a fresh listener on whichever host is the primary now (hub-connect.ts),
 * again every second until it listens; then `wake` runs a sync, for what was pushed meanwhile.
 */
import type postgres from 'postgres';
import type { HubConnector } from './hub-connect.js';

export interface Listening {
  stop(): Promise<void>;
}

const RETRY_MS = 1000;

/**
 * Listens on `channel`; resolves once listening (or rejects, the hub being away: the caller
 * tries again). `open(lost)` makes a client whose connections call `lost` when they close.
 */
export async function keepListening(
  open: (lost: () => void) => postgres.Sql,
  connector: Pick<HubConnector, 'choose' | 'forget'>,
  channel: string,
  wake: () => void,
): Promise<Listening> {
  let stopped = false;
  let sql: postgres.Sql | undefined;
  let timer: NodeJS.Timeout | undefined;
  let retrying = false;

  const listen = async () => {
    await connector.choose();
    const mine = open(() => lost(mine));
    sql = mine;
    try {
      await mine.listen(channel, wake);
    } catch (err) {
      connector.forget();
      await mine.end({ timeout: 0 });
      throw err;
    }
  };
  const again = () => {
    timer = setTimeout(() => {
      if (stopped) return;
      listen().then(
        () => {
          retrying = false;
          wake();
        },
        () => again(),
      );
    }, RETRY_MS);
  };
  const lost = (of: postgres.Sql) => {
    if (stopped || of !== sql || retrying) return;
    retrying = true;
    connector.forget();
    void of.end({ timeout: 0 });
    again();
  };
  await listen();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await sql?.end({ timeout: 1 });
    },
  };
}
