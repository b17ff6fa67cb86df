// The contract's project methods over a real engine: the repository's workflow file, detection, the baseline check's inputs, and runs started with the project's setup.
import { describe, expect, it } from 'vitest';
import type { MethodOutput } from '../../../shared/contract';
import type { BaselineDoc } from '../../../shared/worktree-env';
import type { BaselineFn } from './service-project';
import { callValue } from '../testing/service-calls';
import { makeRepo } from '../testing/temp-repo';
import { serviceHarness } from '../testing/service-harness';

const harness = serviceHarness();

const READY: BaselineDoc = { commit: 'c', ready: true, problem: null, setup: null, gates: [], failingTests: [], durationMs: 1, at: '2026-01-01T00:00:00.000Z' };

async function setup(baseline?: BaselineFn) {
  const { engine, service, events } = await harness.start({ service: baseline ? { baseline } : {} });
  return { engine, service, events };
}

describe('project methods (service)', () => {
  it('project.detect answers what the repository’s committed files show', async () => {
    const { service } = await setup();
    const repo = makeRepo({ 'go.mod': 'module example.com/x\n\nrequire golang.org/x/text v0.3.0\n', 'x.go': 'package x\n' });
    const d = await callValue<MethodOutput<'project.detect'>>(service, 'project.detect', { repo });
    expect(d.found.map((f) => f.label)).toEqual(['Go modules']);
    expect(d.gates.map((g) => g.run)).toEqual(['go test ./...']);
    expect(d.network.map((n) => n.entry)).toEqual(['registry:go']);
  });

  it('workflow.load gives the file’s setup and files to copy beside its gates', async () => {
    const { service } = await setup();
    const repo = makeRepo({ 'ratchet.yml': 'setup: npm ci\ncopy: [.env]\ngates:\n  test: npm test\n' });
    const w = await callValue<MethodOutput<'workflow.load'>>(service, 'workflow.load', { repo });
    expect(w).toMatchObject({ steps: [], gates: { test: 'npm test' }, setup: { run: ['npm ci'], network: [] }, copy: ['.env'], problems: [] });
  });

  it('project.baseline checks the environment written in New task, each gate used, on the repository’s HEAD, and streams its progress', async () => {
    const seen: Array<Parameters<BaselineFn>[0]> = [];
    const { service, events } = await setup(async (o) => {
      seen.push(o);
      o.onProgress?.({ kind: 'setup.started', commands: ['go mod download'] });
      o.onProgress?.({ kind: 'gate.finished', gate: 'test', passed: true, durationMs: 5 });
      return READY;
    });
    const repo = makeRepo({ 'go.mod': 'module x\n' });
    const r = await callValue<BaselineDoc>(service, 'project.baseline', {
      repo,
      gates: { test: 'go test ./...' },
      setup: { run: ['go mod download'], network: ['registry:go'] },
      copy: ['.env'],
    });
    expect(r.ready).toBe(true);
    const w = seen[0]!.workflow;
    expect(w.gates).toEqual({ test: { run: 'go test ./...' } });
    expect(w.setup).toMatchObject({ run: ['go mod download'], network: ['registry:go'] });
    expect(w.copy).toEqual(['.env']);
    // One step naming no gates: every gate is checked.
    expect(w.steps).toEqual([{ title: 'Check project', prompt: '' }]);
    expect(seen[0]!.commit).toMatch(/^[0-9a-f]{40}$/);
    const progress = events.filter((e) => e.name === 'project.onBaseline').map((e) => e.payload);
    expect(progress).toEqual([
      { repo: expect.any(String), phase: 'setup', gate: null, state: 'started', ok: null, durationMs: null },
      { repo: expect.any(String), phase: 'gate', gate: 'test', state: 'finished', ok: true, durationMs: 5 },
    ]);
  });

  it('project.baseline runs a repository’s workflow file only once the user trusts it, and refuses a bad network entry with the field', async () => {
    let calls = 0;
    const { service } = await setup(async () => {
      calls++;
      return READY;
    });
    const repo = makeRepo({ 'ratchet.yml': 'setup: make deps\ngates:\n  test: make test\n' });
    const refused = service.handlers['project.baseline']({ repo, workflowFile: `${repo}/ratchet.yml` });
    await expect(refused).rejects.toThrow(/not trusted yet: read the commands it runs and press Trust first/);
    expect(calls).toBe(0);
    await callValue(service, 'project.baseline', { repo, workflowFile: `${repo}/ratchet.yml`, trust: true });
    expect(calls).toBe(1);
    await expect(
      service.handlers['project.baseline']({ repo, gates: { test: 'make test' }, setup: { run: ['make deps'], network: ['not a host!'] } }),
    ).rejects.toThrow(/setup\.network\.0/);
  });

  it('runs.start keeps New task’s setup and files to copy, and runs the task’s steps with a workflow file that leaves steps to the task', async () => {
    const { service, engine } = await setup();
    const plain = makeRepo();
    const a = await callValue<{ runId: string }>(service, 'runs.start', {
      repo: plain,
      title: 'With setup',
      steps: [{ title: 'One' }],
      gates: { ok: 'true' },
      setup: { run: ['true'], network: ['registry:npm'] },
      copy: ['.env'],
      preset: 'minimal',
    });
    expect(engine.store.getWorkflow(a.runId)).toMatchObject({ setup: { run: ['true'], network: ['registry:npm'] }, copy: ['.env'] });
    const repo = makeRepo({ 'ratchet.yml': 'max_retries: 1\ngates:\n  ok: "true"\n' });
    const b = await callValue<{ runId: string }>(service, 'runs.start', {
      repo,
      title: 'Task steps',
      workflowFile: `${repo}/ratchet.yml`,
      trust: true,
      steps: [{ title: 'Mine', gates: ['ok'] }],
    });
    const w = engine.store.getWorkflow(b.runId);
    expect(w.steps.map((s) => s.title)).toEqual(['Mine']);
    expect(w.max_retries).toBe(1);
    await expect(
      service.handlers['runs.start']({
        repo,
        title: 'Both',
        description: '',
        workflowFile: `${repo}/ratchet.yml`,
        trust: true,
        steps: [{ title: 'x', prompt: '' }],
        gates: { x: 'y' },
      }),
    ).rejects.toThrow(/has its own gates, setup and files to copy/);
  });
});
