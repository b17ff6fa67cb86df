import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-repo';
import { openDatabase } from './open-store';
import { busyMessage, leaseState, type LeaseOwner } from './run-lease';
import { Store } from './store';
import { seedRun } from './testing/seed-run';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const alive = (pid: number) => pid < 1000;

describe('leaseState (pure)', () => {
  const me = { host: 'h1', token: 'mine' };
  const row = (o: Partial<{ owner_pid: number | null; owner_host: string | null; owner_token: string | null; lease_until: string | null }>) => ({
    owner_pid: 7,
    owner_host: 'h1',
    owner_token: 'theirs',
    lease_until: new Date(T0 + 60_000).toISOString(),
    ...o,
  });
  it('free, mine, held', () => {
    expect(leaseState(row({ owner_pid: null }), me, T0, alive)).toEqual({ kind: 'free' });
    expect(leaseState(row({ owner_token: 'mine' }), me, T0, alive)).toEqual({ kind: 'mine' });
    expect(leaseState(row({}), me, T0, alive)).toMatchObject({ kind: 'held', pid: 7, host: 'h1' });
    // An observer (no token) never owns anything.
    expect(leaseState(row({ owner_token: null }), { host: 'h1', token: null }, T0, alive)).toMatchObject({ kind: 'held' });
  });
  it('a dead owner on this host, or any owner past its lease, can be taken over', () => {
    expect(leaseState(row({ owner_pid: 4242 }), me, T0, alive)).toMatchObject({ kind: 'dead', pid: 4242 });
    // On another host a pid means nothing here: only the expiry counts.
    expect(leaseState(row({ owner_pid: 4242, owner_host: 'h2' }), me, T0, alive)).toMatchObject({ kind: 'held', host: 'h2' });
    expect(leaseState(row({ owner_host: 'h2' }), me, T0 + 60_000, alive)).toMatchObject({ kind: 'expired' });
    expect(leaseState(row({ lease_until: null }), me, T0, alive)).toMatchObject({ kind: 'expired' });
  });
  it('says who holds the run', () => {
    expect(busyMessage('r1', { kind: 'held', pid: 12, host: 'box', until: '2026-01-01T00:02:00.000Z' })).toMatch(/^Run r1 is busy in process 12 on host box; /);
  });
});

describe('run leases in the store (two connections to one file)', () => {
  function twoStores(now: () => Date) {
    const home = tempDir();
    const a = new Store(openDatabase(home).db, now);
    const b = new Store(openDatabase(home).db, now);
    return { a, b, runId: seedRun(a) };
  }
  const owner = (token: string, pid = process.pid): LeaseOwner => ({ pid, host: hostname(), token });
  const realAlive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('one claimant wins; the second is told who holds it; after release the second can claim', () => {
    let t = T0;
    const { a, b, runId } = twoStores(() => new Date(t));
    expect(a.acquireLease(runId, owner('A'), 60_000, realAlive)).toMatchObject({ ok: true, took: { kind: 'free' } });
    expect(b.acquireLease(runId, owner('B'), 60_000, realAlive)).toMatchObject({ ok: false, holder: { kind: 'held', pid: process.pid, host: hostname() } });
    // Claiming again with the same token renews it.
    expect(a.acquireLease(runId, owner('A'), 60_000, realAlive)).toMatchObject({ ok: true, took: { kind: 'mine' } });
    t += 30_000;
    expect(a.renewLease(runId, 'A', 60_000)).toBe(true);
    expect(b.renewLease(runId, 'B', 60_000)).toBe(false);
    b.releaseLease(runId, 'B'); // not its lease: nothing happens
    expect(b.acquireLease(runId, owner('B'), 60_000, realAlive)).toMatchObject({ ok: false });
    a.releaseLease(runId, 'A');
    expect(b.acquireLease(runId, owner('B'), 60_000, realAlive)).toMatchObject({ ok: true, took: { kind: 'free' } });
  });

  it('takes over from a dead process of this host, and from a live one whose lease ran out — which then stops deciding the status', () => {
    let t = T0;
    const { a, b, runId } = twoStores(() => new Date(t));
    const gone = 2 ** 22 + 4321;
    expect(a.acquireLease(runId, owner('A', gone), 60_000, realAlive)).toMatchObject({ ok: true });
    expect(b.acquireLease(runId, owner('B'), 60_000, realAlive)).toMatchObject({ ok: true, took: { kind: 'dead', pid: gone } });
    expect(b.eventsSince(runId).at(-1)).toMatchObject({ type: 'log', payload: { message: expect.stringContaining(`from process ${gone}`) } });
    b.releaseLease(runId, 'B');

    expect(a.acquireLease(runId, owner('A2'), 60_000, realAlive)).toMatchObject({ ok: true });
    t += 59_000;
    expect(b.acquireLease(runId, owner('B2'), 60_000, realAlive)).toMatchObject({ ok: false });
    t += 2_000;
    expect(b.acquireLease(runId, owner('B2'), 60_000, realAlive)).toMatchObject({ ok: true, took: { kind: 'expired' } });
    // A wakes up: its heartbeat fails, and its late status writes no longer land.
    expect(a.renewLease(runId, 'A2', 60_000)).toBe(false);
    b.setRunStatus(runId, 'running', null);
    a.setRunStatus(runId, 'paused', 'stopped');
    expect(b.getRun(runId)?.status).toBe('running');
    a.releaseLease(runId, 'A2');
    expect(b.getRun(runId)?.owner_token).toBe('B2');
  });
});
