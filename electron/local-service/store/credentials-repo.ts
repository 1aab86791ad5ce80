import type { Db } from '../../node-lib/sqlite.js';

export type Audience = 'api_key' | 'session' | 'trial_key';

export interface CredentialRow {
  id: string;
  hash: string;
  audience: Audience;
  frames_granted: number;
  frames_spent: number;
  frames_reserved: number;
  created_at: number;
  expires_at: number | null;
  parent_id: string | null;
  device_id: string | null;
  network: string | null;
}

export type NewCredential = Pick<CredentialRow, 'id' | 'hash' | 'audience' | 'frames_granted'> &
  Partial<Pick<CredentialRow, 'expires_at' | 'parent_id' | 'device_id' | 'network'>>;

/** Credentials, their frame balances and hourly usage. Statements are prepared once. */
export class CredentialsRepo {
  private readonly byHash;
  private readonly byId;
  private readonly trialOf;
  private readonly insertRow;
  private readonly addReserved;
  private readonly settleRow;
  private readonly hourUsed;
  private readonly addHour;
  private readonly unreserveAll;
  private readonly poolUsed;
  private readonly addPool;
  private readonly setGrant;

  constructor(private readonly db: Db) {
    this.byHash = db.prepare<[string], CredentialRow>('SELECT * FROM credentials WHERE hash = ?');
    this.byId = db.prepare<[string], CredentialRow>('SELECT * FROM credentials WHERE id = ?');
    this.trialOf = db.prepare<[string], CredentialRow>(
      "SELECT * FROM credentials WHERE parent_id = ? AND audience = 'trial_key'",
    );
    this.insertRow = db.prepare(`INSERT INTO credentials
      (id, hash, audience, frames_granted, created_at, expires_at, parent_id, device_id, network)
      VALUES (@id, @hash, @audience, @frames_granted, @created_at, @expires_at, @parent_id, @device_id, @network)`);
    this.addReserved = db.prepare<[number, string]>(
      'UPDATE credentials SET frames_reserved = frames_reserved + ? WHERE id = ?',
    );
    this.settleRow = db.prepare<[number, number, string]>(
      'UPDATE credentials SET frames_reserved = frames_reserved - ?, frames_spent = frames_spent + ? WHERE id = ?',
    );
    this.hourUsed = db.prepare<[string, number], { frames: number }>(
      'SELECT frames FROM hour_usage WHERE credential_id = ? AND hour = ?',
    );
    this.addHour = db.prepare<{
      id: string;
      hour: number;
      frames: number;
    }>(`INSERT INTO hour_usage (credential_id, hour, frames)
      VALUES (@id, @hour, max(@frames, 0))
      ON CONFLICT (credential_id, hour) DO UPDATE SET frames = max(frames + @frames, 0)`);
    this.unreserveAll = db.prepare('UPDATE credentials SET frames_reserved = 0');
    this.poolUsed = db.prepare<[string, string, number], { frames: number }>(
      'SELECT frames FROM pool_usage WHERE kind = ? AND pool_key = ? AND day = ?',
    );
    this.addPool = db.prepare<{
      kind: string;
      key: string;
      day: number;
      frames: number;
    }>(`INSERT INTO pool_usage
      (kind, pool_key, day, frames) VALUES (@kind, @key, @day, @frames)
      ON CONFLICT (kind, pool_key, day) DO UPDATE SET frames = frames + @frames`);
    this.setGrant = db.prepare<[number, string]>(
      'UPDATE credentials SET frames_granted = ? WHERE id = ?',
    );
  }

  findByHash(hash: string): CredentialRow | undefined {
    return this.byHash.get(hash);
  }

  get(id: string): CredentialRow | undefined {
    return this.byId.get(id);
  }

  trialKeyOf(sessionId: string): CredentialRow | undefined {
    return this.trialOf.get(sessionId);
  }

  insert(row: NewCredential, now: number): void {
    this.insertRow.run({
      expires_at: null,
      parent_id: null,
      device_id: null,
      network: null,
      ...row,
      created_at: now,
    });
  }

  setFramesGranted(id: string, frames: number): void {
    this.setGrant.run(frames, id);
  }

  reserve(id: string, frames: number, hour: number): void {
    this.db.transaction(() => {
      this.addReserved.run(frames, id);
      this.addHour.run({ id, hour, frames });
    })();
  }

  /** Turns a reservation into spending; the unspent part goes back to the total and to its hour. */
  settle(id: string, reserved: number, spent: number, hour: number): void {
    this.db.transaction(() => {
      this.settleRow.run(reserved, spent, id);
      if (reserved > spent) this.addHour.run({ id, hour, frames: spent - reserved });
    })();
  }

  hourUsage(id: string, hour: number): number {
    return this.hourUsed.get(id, hour)?.frames ?? 0;
  }

  /** At start no request is in flight, so image reservations left by a crash are void. */
  clearReservations(): void {
    this.unreserveAll.run();
  }

  addReservation(id: string, frames: number): void {
    this.addReserved.run(frames, id);
  }

  poolUsage(kind: 'device' | 'network', key: string, day: number): number {
    return this.poolUsed.get(kind, key, day)?.frames ?? 0;
  }

  addPoolUsage(kind: 'device' | 'network', key: string, day: number, frames: number): void {
    this.addPool.run({ kind, key, day, frames });
  }
}
