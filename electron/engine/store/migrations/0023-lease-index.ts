// Migration 23: the runs whose lease is held, found through an index of their own (the queue's active runs, asked on
// every runs.queue and every pump): without it each ask read every run in the store (0.6 s over a year of history).
import { creates, type Migration } from '../migration';

export const migration0023: Migration = {
  version: 23,
  name: 'lease-index',
  present: creates('index', 'runs_leased'),
  up(db) {
    db.exec('CREATE INDEX runs_leased ON runs(lease_until) WHERE owner_token IS NOT NULL;');
  },
};
