import type { Migration } from '../../node-lib/sqlite.js';

export const SERVICE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'credentials-usage-jobs',
    sql: `
      CREATE TABLE credentials (
        id TEXT PRIMARY KEY,
        hash TEXT NOT NULL UNIQUE,
        audience TEXT NOT NULL CHECK (audience IN ('api_key', 'session', 'trial_key')),
        frames_granted INTEGER NOT NULL CHECK (frames_granted >= 0),
        frames_spent INTEGER NOT NULL DEFAULT 0 CHECK (frames_spent >= 0),
        frames_reserved INTEGER NOT NULL DEFAULT 0 CHECK (frames_reserved >= 0),
        created_at INTEGER NOT NULL,
        expires_at INTEGER,
        parent_id TEXT REFERENCES credentials(id),
        device_id TEXT,
        network TEXT
      ) STRICT;
      CREATE UNIQUE INDEX one_trial_key_per_session ON credentials(parent_id) WHERE audience = 'trial_key';

      CREATE TABLE hour_usage (
        credential_id TEXT NOT NULL REFERENCES credentials(id),
        hour INTEGER NOT NULL,
        frames INTEGER NOT NULL CHECK (frames >= 0),
        PRIMARY KEY (credential_id, hour)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE pool_usage (
        kind TEXT NOT NULL CHECK (kind IN ('device', 'network')),
        pool_key TEXT NOT NULL,
        day INTEGER NOT NULL,
        frames INTEGER NOT NULL,
        PRIMARY KEY (kind, pool_key, day)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        credential_id TEXT NOT NULL REFERENCES credentials(id),
        solution TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
        upload_path TEXT NOT NULL,
        frame_cost INTEGER NOT NULL,
        frames_expected INTEGER NOT NULL,
        frames_done INTEGER NOT NULL DEFAULT 0,
        frames_reserved INTEGER NOT NULL,
        reserved_hour INTEGER NOT NULL,
        info TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER,
        error_code TEXT,
        error_message TEXT
      ) STRICT;
      CREATE INDEX jobs_by_status ON jobs(status, created_at);

      CREATE TABLE job_frames (
        job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        time_ms INTEGER NOT NULL,
        detections TEXT NOT NULL,
        PRIMARY KEY (job_id, idx)
      ) STRICT, WITHOUT ROWID;
    `,
  },
];
