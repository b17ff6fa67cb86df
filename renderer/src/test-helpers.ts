// Test helpers: install a fake bridge as window.ratchet, reset every store, and stub what jsdom lacks.
import { configure } from '@testing-library/react';
import { resetApi } from './api/client';
import { createFakeBridge, type FakeBridge, type FakeOptions } from '../dev/fake-bridge';
import { seedHistory } from '../dev/seed-history';
import { useProject } from './stores/project';
import { useQueue } from './stores/queue';
import { useRunDetail } from './stores/run-detail';
import { useRuns } from './stores/runs';
import { useSettings } from './stores/settings';
import { resetStatsRefresh, useStats } from './stores/stats';
import { useUi } from './stores/ui';
import { useTeam } from './stores/team';

// findBy… and waitFor wait up to 5 s, not 1 s: on a loaded 2-core machine a screen's first render alone can take longer,
// and a test that waits for something that never comes still fails, only later.
configure({ asyncUtilTimeout: 5000 });

/** A fixed clock for fixtures, so relative times and countdowns are deterministic. */
export const NOW = Date.parse('2026-11-22T12:00:00.000Z');

export function resetStores(): void {
  for (const store of [useRuns, useRunDetail, useSettings, useStats, useUi, useQueue, useProject, useTeam] as const) {
    (store as { setState(s: unknown, replace: true): void }).setState(store.getInitialState(), true);
  }
  resetStatsRefresh();
}

/**
 * jsdom does no layout, so every element is 0 px tall and a virtualized list would show no row at all. Elements
 * with an explicit inline height (the virtualized viewports) report it, as a browser would.
 */
export function stubLayout(): void {
  const proto = HTMLElement.prototype as unknown as Record<string, unknown>;
  if (proto.__layoutStubbed) return;
  proto.__layoutStubbed = true;
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return parseFloat(this.style.height) || 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return this.style.height ? 800 : 0;
    },
  });
}

export function installFake(opts: FakeOptions & { history?: boolean } = {}): FakeBridge {
  const fake = createFakeBridge({ now: NOW, ...opts });
  if (opts.history !== false) seedHistory(fake);
  window.ratchet = fake.bridge;
  resetApi();
  resetStores();
  stubLayout();
  if (!('ResizeObserver' in globalThis)) {
    (globalThis as { ResizeObserver?: unknown }).ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  }
  return fake;
}

/** Lets pending promises and zero-delay timers (the fake's events) run. */
export async function flush(times = 3): Promise<void> {
  for (let i = 0; i < times; i++) await new Promise((r) => setTimeout(r, 0));
}
