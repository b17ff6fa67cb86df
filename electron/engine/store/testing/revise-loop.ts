// Test worker (run with `node --import tsx`): revises one run's plan N times over its own connection, then prints
// {"ok":n,"busy":n,"other":[...]} — how many revisions failed with SQLITE_BUSY/locked, and any other error.
import { openDatabase } from '../open-store';
import { Store } from '../store';

const [home, runId, count, startAt] = process.argv.slice(2) as [string, string, string, string];
const store = new Store(openDatabase(home).db);
let ok = 0;
let busy = 0;
const other: string[] = [];
// Both workers start at the same moment, so their loops overlap.
while (Date.now() < Number(startAt)) {
  /* wait */
}
for (let i = 0; i < Number(count); i++) {
  try {
    store.revisePlan(runId, [{ title: 'step 1' }, { title: `step 2 (${process.pid} #${i})` }] as never);
    ok++;
  } catch (err) {
    const code = String((err as { code?: unknown }).code ?? '');
    if (/^SQLITE_(BUSY|LOCKED)/.test(code) || /database is locked/.test(String(err))) busy++;
    else other.push(String(err));
  }
}
store.db.close();
process.stdout.write(`${JSON.stringify({ ok, busy, other: other.slice(0, 5) })}\n`);
