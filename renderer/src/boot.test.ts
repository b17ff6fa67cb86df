// @vitest-environment jsdom
// The start-up offer to resume: made once per interruption, remembered across reloads, and only on
// Home — never opening by itself over Settings, New task or another run's page (the Home banner keeps the offer).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RUN_IDS } from '../dev/fixtures-runs';
import { boot } from './boot';
import { flush, installFake, resetStores } from './test-helpers';
import { useRuns } from './stores/runs';
import { useUi } from './stores/ui';

let stop: (() => void) | null = null;
beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  stop?.();
  stop = null;
  location.hash = '';
});

/** A page load: fresh stores (what survives is the browser's storage), then the app's start-up. */
async function reload(hash: string): Promise<void> {
  stop?.();
  resetStores();
  location.hash = hash;
  stop = boot();
  await flush(6);
}

describe('the start-up resume offer', () => {
  it('opens once per interruption on Home, and not again after a reload', async () => {
    installFake();
    await reload('#/');
    expect(useUi.getState().resumeRunId).toBe(RUN_IDS.interrupted);
    useUi.getState().closeResume();
    await reload('#/');
    expect(useRuns.getState().interrupted.data.map((r) => r.id)).toEqual([RUN_IDS.interrupted]);
    expect(useUi.getState().resumeRunId).toBeNull();
  });

  it('never opens by itself over another screen', async () => {
    installFake();
    for (const hash of ['#/settings', '#/new?repo=%2Fhome%2Fdev%2Fcode%2Fspace-game', `#/runs/${RUN_IDS.health}`, '#/dashboard']) {
      await reload(hash);
      expect(useUi.getState().resumeRunId, hash).toBeNull();
    }
    // Offered when the user goes to Home: nothing was offered yet.
    location.hash = '#/';
    await flush(6);
    expect(useUi.getState().resumeRunId).toBe(RUN_IDS.interrupted);
    // Once: going elsewhere and back does not offer it again.
    useUi.getState().closeResume();
    location.hash = '#/settings';
    await flush(3);
    location.hash = '#/';
    await flush(3);
    expect(useUi.getState().resumeRunId).toBeNull();
  });

  it('offers the same run again when it is interrupted again later', async () => {
    const fake = installFake();
    await reload('#/');
    useUi.getState().closeResume();
    const r = fake.runs.get(RUN_IDS.interrupted)!;
    r.summary = { ...r.summary, updatedAt: new Date(Date.parse(r.summary.updatedAt) + 3_600_000).toISOString() };
    await reload('#/');
    expect(useUi.getState().resumeRunId).toBe(RUN_IDS.interrupted);
  });
});
