// @vitest-environment jsdom
// Every menu command, sent as app.onCommand through the contract (fake bridge → typed client), does what its item says.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MenuCommand } from '../../../shared/menu-commands';
import { getApi } from '../api/client';
import { REPO, RUN_IDS } from '../../dev/fixtures-runs';
import type { FakeBridge } from '../../dev/fake-bridge';
import { flush, installFake } from '../test-helpers';
import { connectEvents } from './engine-events';
import { useRunDetail } from './run-detail';
import { useUi } from './ui';

let fake: FakeBridge;
let disconnect: () => void;

function goTo(hash: string) {
  location.hash = hash;
  useUi.getState().setRoute(location.hash);
}

async function command(c: MenuCommand) {
  fake.emit('app.onCommand', { command: c });
  await flush(5);
  useUi.getState().setRoute(location.hash);
}

beforeEach(() => {
  fake = installFake();
  disconnect = connectEvents(getApi());
  goTo('#/');
});
afterEach(() => disconnect());

const called = (method: string) => fake.calls.filter((c) => c.method === method).map((c) => c.input);

describe('menu commands in the window', () => {
  it('newTask opens New Task asking for the repository, as the sidebar’s New task does, even over a run (issue 34 item 7)', async () => {
    await command('newTask');
    expect(location.hash).toMatch(/^#\/new/);
    goTo(`#/runs/${RUN_IDS.waiting}`);
    await useRunDetail.getState().open(RUN_IDS.waiting);
    await command('newTask');
    expect(useUi.getState().route).toEqual({ name: 'new', repo: null });
  });

  it('openRepo asks for a folder (repos.pick) and opens New Task for it', async () => {
    await command('openRepo');
    expect(called('repos.pick')).toHaveLength(1);
    expect(useUi.getState().route).toEqual({ name: 'new', repo: REPO });
  });

  it('retry retries the run on screen', async () => {
    goTo(`#/runs/${RUN_IDS.failed}`);
    await command('retry');
    expect(called('runs.retry')).toEqual([{ runId: RUN_IDS.failed }]);
  });

  it('resume opens the resume dialog of the run on screen', async () => {
    goTo(`#/runs/${RUN_IDS.interrupted}`);
    useUi.getState().closeResume();
    await command('resume');
    expect(useUi.getState().resumeRunId).toBe(RUN_IDS.interrupted);
  });

  it('stop stops the run on screen', async () => {
    goTo(`#/runs/${RUN_IDS.running}`);
    await command('stop');
    expect(called('runs.stop')).toEqual([{ runId: RUN_IDS.running }]);
  });

  it.each(['retry', 'resume', 'stop'] as const)('%s with no run on screen says to open one, and calls nothing', async (c) => {
    await command(c);
    expect(called('runs.retry')).toEqual([]);
    expect(called('runs.stop')).toEqual([]);
    expect(useUi.getState().resumeRunId).toBeNull();
    expect(useUi.getState().notices.at(-1)?.title).toMatch(/no run open/);
  });

  it('a refused command is shown as an error notice', async () => {
    fake = installFake({
      overrides: {
        'runs.retry': () => {
          throw Object.assign(new Error('The run is running; stop it first.'), { code: 'busy' });
        },
      },
    });
    disconnect();
    disconnect = connectEvents(getApi());
    goTo(`#/runs/${RUN_IDS.running}`);
    await command('retry');
    expect(useUi.getState().notices.at(-1)).toMatchObject({ level: 'error', title: 'Retry did not work' });
  });

  it('dashboard and settings open their screens', async () => {
    await command('dashboard');
    expect(useUi.getState().route.name).toBe('dashboard');
    await command('settings');
    expect(useUi.getState().route.name).toBe('settings');
  });
});
