// New task's estimate through the service: the same input as runs.start, nothing started, no trust or key needed.
import { describe, expect, it } from 'vitest';
import { PlanEstimate } from '../../../shared/domain';
import { callValue } from '../testing/service-calls';
import { serviceHarness } from '../testing/service-harness';
import { makeRepo } from '../testing/temp-repo';

const harness = serviceHarness();

describe('runs.estimate', () => {
  it('estimates app-written steps with no history from the plan alone, starts nothing, and counts the steps', async () => {
    const { engine, service } = await harness.start();
    const repo = makeRepo();
    const input = { repo, title: 'Health', description: '', gates: { ok: 'true' } };
    const one = PlanEstimate.parse(await callValue(service, 'runs.estimate', { ...input, steps: [{ title: 'One' }] }));
    const three = PlanEstimate.parse(await callValue(service, 'runs.estimate', { ...input, steps: [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }] }));
    expect(one).toMatchObject({ confidence: 'none', basis: { runs: 0 } });
    expect(three.usd.p50).toBeGreaterThan(2 * one.usd.p50);
    // Each step's share, in the plan's order (a drafted plan lists them).
    expect(one.steps).toHaveLength(1);
    expect(three.steps).toHaveLength(3);
    for (const s of three.steps) expect(s.usd.p50).toBeGreaterThan(0);
    expect(engine.store.listRunSummaries({ limit: 5 })).toEqual([]);
  });
});
