// Migration 6: a run's owner holds a lease — a random token and an expiry the heartbeat renews — so exactly one process runs it.
import type { Migration } from '../migration';

export const migration0006: Migration = {
  version: 6,
  name: 'run-lease',
  up(db) {
    db.exec(`
      ALTER TABLE runs ADD COLUMN owner_token TEXT;
      ALTER TABLE runs ADD COLUMN lease_until TEXT;
    `);
    // Owners recorded before leases: their lease runs two minutes past their last heartbeat.
    db.exec(`
      UPDATE runs SET lease_until = strftime('%Y-%m-%dT%H:%M:%fZ', heartbeat_at, '+120 seconds')
      WHERE owner_pid IS NOT NULL AND heartbeat_at IS NOT NULL;
    `);
  },
};
