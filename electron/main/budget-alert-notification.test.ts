// The budget alert, in the app: a run crossing alert_at (here, a `ratchet run` in another process writing the same store) raises an OS notification.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '../../shared/testing/until';
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('./testing/fake-electron'));
const fake = await import('./testing/fake-electron');
const { runShell } = await import('./shell');
const { createEngine } = await import('../engine/engine');
const { seedRun } = await import('../engine/store/testing/seed-run');

let base: string;
beforeEach(() => {
  fake.resetFakeElectron();
  base = mkdtempSync(join(tmpdir(), 'ratchet-alert-'));
  fake.app.setPath('userData', join(base, 'userData'));
  mkdirSync(join(base, 'renderer'), { recursive: true });
  writeFileSync(join(base, 'renderer', 'index.html'), '<!doctype html><title>Ratchet</title>');
});

describe('the budget alert in the app', () => {
  it('shows an OS notification saying which budget and what was spent, while the window is not focused', async () => {
    const home = join(base, 'home');
    runShell({
      env: { RATCHET_HOME: home },
      argv: ['electron', fake.app.getAppPath()],
      cwd: base,
      platform: 'linux',
      preload: '/p.cjs',
      rendererDir: join(base, 'renderer'),
    });
    fake.app.ready.resolve();
    await until(() => fake.BrowserWindow.instances[0], { ms: 8000, describe: 'the window' });
    // Another process (the CLI) runs a task whose spending crosses alert_at.
    const cli = createEngine({ home, env: {} });
    const runId = seedRun(cli.store);
    cli.store.event(runId, 'budget.alert', { key: `task:${runId}`, kind: 'task', spentUsd: 4.1, limitUsd: 5 });
    const shown = await until(() => fake.Notification.shown.find((n) => n.title === 'Budget alert'), { ms: 8000, describe: 'the OS notification' });
    expect(shown.body).toBe('Task budget: $4.10 of $5.00 spent.');
    cli.close();
    fake.app.quit();
    await until(() => fake.app.quitCalls >= 2, { ms: 8000, describe: 'the second quit' });
  });
});
