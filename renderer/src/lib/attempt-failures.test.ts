// The failing tests of an attempt: a flaky re-run is not a second failing test, and paths are relative to the repository.
import { describe, expect, it } from 'vitest';
import type { AttemptDetail } from '../../../shared/contract';
import { attemptFailures, gateTally, relativeTo } from './attempt-failures';

type Gate = AttemptDetail['gates'][number];
const WT = '/tmp/home/worktrees/calc-1';
const mul = { name: 'multiplies two numbers', message: null, expected: '6', actual: '4', file: `${WT}/test/mul.test.mjs`, line: 5 };
const gate = (name: string, passed: boolean, failures = passed ? [] : [mul]): Gate =>
  ({
    gate: name,
    command: 'node --test',
    passed,
    exitCode: passed ? 0 : 1,
    signal: null,
    timedOut: false,
    durationMs: 5,
    output: '',
    outputBytes: 0,
    failures,
  }) as unknown as Gate;

describe('attemptFailures', () => {
  it('counts a test that failed on the gate and again on its flaky re-run once', () => {
    const r = attemptFailures([gate('test', false), gate('test (flaky check)', false)], WT);
    expect(r.failing).toHaveLength(1);
    expect(r.flaky).toEqual([]);
  });

  it('puts a test that failed, then passed on the flaky re-run, apart as flaky, not failing', () => {
    const r = attemptFailures([gate('test', false), gate('test (flaky check)', true)], WT);
    expect(r.failing).toEqual([]);
    expect(r.flaky.map((f) => f.name)).toEqual(['multiplies two numbers']);
  });

  it('shows file paths relative to the repository', () => {
    const r = attemptFailures([gate('test', false)], WT);
    expect(r.failing[0]!.file).toBe('test/mul.test.mjs');
    expect(relativeTo(WT, `file://${WT}/src/a.mjs`)).toBe('src/a.mjs');
    expect(relativeTo(WT, '/usr/lib/node/x.js')).toBe('/usr/lib/node/x.js');
    expect(relativeTo(null, 'src/a.mjs')).toBe('src/a.mjs');
  });
});

describe('gateTally (issue 20 item 22)', () => {
  it('counts each gate once, as its last run ended: a flaky re-run is not a gate of its own', () => {
    expect(gateTally([gate('test', false), gate('test (flaky check)', false), gate('build', true)])).toEqual({ passed: 1, total: 2, flaky: [] });
    expect(gateTally([gate('test', false), gate('test (flaky check)', true), gate('build', true)])).toEqual({ passed: 2, total: 2, flaky: ['test'] });
    expect(gateTally([gate('test', false), gate('test (re-run after crash)', true)])).toEqual({ passed: 1, total: 1, flaky: [] });
    expect(gateTally([])).toEqual({ passed: 0, total: 0, flaky: [] });
  });
});
